package dev.distvm.io;

import java.nio.charset.Charset;
import java.util.Locale;

/**
 * A worker's {@code System.out} or {@code System.err}: what one call prints leaves as one message.
 * On one JVM a {@code printf} holds its stream's lock while it writes its pieces, so another
 * thread's output never lands inside it; across nodes the home prints each message whole, so the
 * pieces of one call must travel together. Every public method that writes runs through
 * {@link #whole}, which sends when the outermost call ends (the JDK's methods call each other: a
 * {@code printf} appends, which prints, which writes). A subclass of {@code PrintStream} locks
 * itself ({@code synchronized (this)}) on every JDK, so the depth below is only touched under that lock.
 */
final class RemotePrintStream extends java.io.PrintStream {
    final RemoteOutput remote;
    /** Kept here because {@code PrintStream.charset()} is JDK 18's. */
    final Charset charset;
    private int depth;

    RemotePrintStream(RemoteOutput remote, Charset charset) {
        super(remote, true, charset);
        this.remote = remote;
        this.charset = charset;
    }

    private void whole(Runnable call) {
        synchronized (this) {
            depth++;
            try {
                call.run();
            } finally {
                if (--depth == 0) {
                    remote.send();
                }
            }
        }
    }

    @Override public void flush() { whole(super::flush); }
    @Override public void close() { whole(super::close); }
    @Override public void write(int b) { whole(() -> super.write(b)); }
    @Override public void write(byte[] buf, int off, int len) { whole(() -> super.write(buf, off, len)); }
    @Override public void write(byte[] buf) throws java.io.IOException { whole(() -> super.write(buf, 0, buf.length)); }
    @Override public void writeBytes(byte[] buf) { whole(() -> super.write(buf, 0, buf.length)); }
    @Override public void print(boolean b) { whole(() -> super.print(b)); }
    @Override public void print(char c) { whole(() -> super.print(c)); }
    @Override public void print(int i) { whole(() -> super.print(i)); }
    @Override public void print(long l) { whole(() -> super.print(l)); }
    @Override public void print(float f) { whole(() -> super.print(f)); }
    @Override public void print(double d) { whole(() -> super.print(d)); }
    @Override public void print(char[] s) { whole(() -> super.print(s)); }
    @Override public void print(String s) { whole(() -> super.print(s)); }
    @Override public void print(Object obj) { whole(() -> super.print(obj)); }
    @Override public void println() { whole(super::println); }
    @Override public void println(boolean x) { whole(() -> super.println(x)); }
    @Override public void println(char x) { whole(() -> super.println(x)); }
    @Override public void println(int x) { whole(() -> super.println(x)); }
    @Override public void println(long x) { whole(() -> super.println(x)); }
    @Override public void println(float x) { whole(() -> super.println(x)); }
    @Override public void println(double x) { whole(() -> super.println(x)); }
    @Override public void println(char[] x) { whole(() -> super.println(x)); }
    @Override public void println(String x) { whole(() -> super.println(x)); }
    @Override public void println(Object x) { whole(() -> super.println(x)); }

    @Override
    public RemotePrintStream printf(String format, Object... args) {
        whole(() -> super.printf(format, args));
        return this;
    }

    @Override
    public RemotePrintStream printf(Locale l, String format, Object... args) {
        whole(() -> super.printf(l, format, args));
        return this;
    }

    @Override
    public RemotePrintStream format(String format, Object... args) {
        whole(() -> super.format(format, args));
        return this;
    }

    @Override
    public RemotePrintStream format(Locale l, String format, Object... args) {
        whole(() -> super.format(l, format, args));
        return this;
    }

    @Override
    public RemotePrintStream append(CharSequence csq) {
        whole(() -> super.append(csq));
        return this;
    }

    @Override
    public RemotePrintStream append(CharSequence csq, int start, int end) {
        whole(() -> super.append(csq, start, end));
        return this;
    }

    @Override
    public RemotePrintStream append(char c) {
        whole(() -> super.append(c));
        return this;
    }
}
