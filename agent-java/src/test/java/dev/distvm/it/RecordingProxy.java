package dev.distvm.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP proxy for one connection that records what the client sent, as an eavesdropper on the
 * wire would, so that a test can replay it verbatim.
 */
final class RecordingProxy implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    private final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
    private final Thread relay;

    RecordingProxy(InetSocketAddress target) throws IOException {
        relay = new Thread(() -> relay(target), "recording-proxy");
        relay.setDaemon(true);
        relay.start();
    }

    String address() {
        return "tcp://127.0.0.1:" + listener.getLocalPort();
    }

    /** Everything the client sent so far. */
    byte[] recorded() {
        synchronized (fromClient) {
            return fromClient.toByteArray();
        }
    }

    private void relay(InetSocketAddress target) {
        try (Socket client = listener.accept(); Socket server = new Socket()) {
            server.connect(target);
            Thread back = new Thread(() -> pump(server, client, null), "recording-proxy-back");
            back.setDaemon(true);
            back.start();
            pump(client, server, fromClient);
        } catch (IOException e) {
            // the proxy was closed or a side went away: the recording is what it is
        }
    }

    private static void pump(Socket from, Socket to, ByteArrayOutputStream record) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (record != null) {
                    synchronized (record) {
                        record.write(buffer, 0, n);
                    }
                }
                out.write(buffer, 0, n);
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
