package dev.distvm.perf;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * The network's floor between two emulated hosts: a 64-byte echo over a plain TCP socket, the
 * median of many round trips. One process serves ({@code --serve HOST:PORT}, prints
 * {@code ready} once listening, answers one client, exits); another pings it
 * ({@code --ping HOST:PORT COUNT}, prints the median in microseconds).
 */
public final class RoundTripProbe {
    private static final int PAYLOAD = 64;

    private RoundTripProbe() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--serve")) {
            serve(address(args[1]));
        } else if (args.length == 3 && args[0].equals("--ping")) {
            System.out.printf("%.1f%n", medianMicros(address(args[1]), Integer.parseInt(args[2])));
        } else {
            System.err.println("usage: RoundTripProbe --serve HOST:PORT | --ping HOST:PORT COUNT");
            System.exit(2);
        }
    }

    private static InetSocketAddress address(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        return new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }

    private static void serve(InetSocketAddress address) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(address);
            System.out.println("ready");
            System.out.flush();
            try (Socket client = listener.accept()) {
                client.setTcpNoDelay(true);
                DataInputStream in = new DataInputStream(client.getInputStream());
                DataOutputStream out = new DataOutputStream(client.getOutputStream());
                byte[] message = new byte[PAYLOAD];
                while (true) {
                    try {
                        in.readFully(message);
                    } catch (java.io.EOFException end) {
                        return;
                    }
                    out.write(message);
                    out.flush();
                }
            }
        }
    }

    private static double medianMicros(InetSocketAddress address, int count) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 10_000);
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] message = new byte[PAYLOAD];
            long[] nanos = new long[count];
            for (int warmup = 0; warmup < count; warmup++) {
                out.write(message);
                out.flush();
                in.readFully(message);
            }
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                out.write(message);
                out.flush();
                in.readFully(message);
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            return nanos[count / 2] / 1_000.0;
        }
    }
}
