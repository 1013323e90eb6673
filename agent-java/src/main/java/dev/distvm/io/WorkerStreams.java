package dev.distvm.io;

import java.nio.charset.Charset;

/**
 * A worker's {@code System.out}, {@code System.err} and {@code System.in} are the home's. What a
 * placed thread prints is encoded as the home's own streams encode (each start names their
 * charsets): the bytes reach the home's terminal as that {@code println} would have written them
 * there. (Encoded as UTF-8 always, an {@code é} printed on a worker under a POSIX locale arrived as
 * two bytes where one JVM writes {@code ?}.)
 */
public final class WorkerStreams {
    private static RemotePrintStream out;
    private static RemotePrintStream err;

    private WorkerStreams() {}

    public static synchronized void redirect(HomeLink home) {
        out = new RemotePrintStream(new RemoteOutput(home, HomeOutput.OUT), Charset.forName(encodingOf("stdout")));
        err = new RemotePrintStream(new RemoteOutput(home, HomeOutput.ERR), Charset.forName(encodingOf("stderr")));
        System.setOut(out);
        System.setErr(err);
        System.setIn(new RemoteInput(home));
    }

    /**
     * The charset this JVM's own {@code System.out} ({@code stream} "stdout") or {@code System.err}
     * ("stderr") encodes with: {@code stdout.encoding} from JDK 19 on, {@code sun.stdout.encoding}
     * where an older JDK set it, else the default charset (the locale's, on JDK 17).
     */
    public static String encodingOf(String stream) {
        for (String property : new String[] {stream + ".encoding", "sun." + stream + ".encoding"}) {
            String name = System.getProperty(property);
            if (name != null && Charset.isSupported(name)) {
                return Charset.forName(name).name();
            }
        }
        return Charset.defaultCharset().name();
    }

    /**
     * Encodes the worker's streams in the home's charsets, before a placed thread runs. A stream the
     * program replaced stays; a charset this JVM lacks leaves the stream as it was.
     */
    public static synchronized void encodeAs(String outEncoding, String errEncoding) {
        RemotePrintStream newOut = reencoded(out, outEncoding);
        if (newOut != out && System.out == out) {
            System.setOut(newOut);
        }
        out = newOut;
        RemotePrintStream newErr = reencoded(err, errEncoding);
        if (newErr != err && System.err == err) {
            System.setErr(newErr);
        }
        err = newErr;
    }

    private static RemotePrintStream reencoded(RemotePrintStream stream, String encoding) {
        if (stream == null || stream.charset.name().equals(encoding) || !Charset.isSupported(encoding)) {
            return stream;
        }
        return new RemotePrintStream(stream.remote, Charset.forName(encoding));
    }
}
