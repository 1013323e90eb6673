package dev.distvm.transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code tcp://HOST[:PORT]} addresses that commands and agent options take, checked in one place. */
public final class TcpAddress {
    private static final Pattern FORM = Pattern.compile("tcp://([^:/\\s]+)(?::(\\d{1,5}))?");
    private static final int MAX_PORT = 65535;

    private TcpAddress() {}

    /**
     * {@code text} as {@code tcp://HOST:PORT}, with {@code defaultPort} where it names no port.
     *
     * @param what names the option in the error message, e.g. {@code --bind}
     * @throws IllegalArgumentException naming the option, the expected form and the bad value
     */
    public static String normalize(String what, String text, int defaultPort) {
        Matcher form = FORM.matcher(text);
        if (form.matches()) {
            int port = form.group(2) == null ? defaultPort : Integer.parseInt(form.group(2));
            if (port <= MAX_PORT) {
                return "tcp://" + form.group(1) + ":" + port;
            }
        }
        throw new IllegalArgumentException(what + " must look like tcp://HOST[:PORT] with a port up to " + MAX_PORT
                + ", got '" + text + "'");
    }

    /** {@code address} without its port: {@code tcp://HOST}, as nodes that take a free port of their own are given it. */
    public static String withoutPort(String address) {
        Matcher form = FORM.matcher(address);
        if (!form.matches()) {
            throw new IllegalArgumentException("not a tcp://HOST[:PORT] address: '" + address + "'");
        }
        return "tcp://" + form.group(1);
    }

    /** Whether {@code address} ({@code tcp://HOST:PORT}) names this host's loopback interface. */
    public static boolean isLoopback(String address) {
        InetSocketAddress socket = Endpoint.socketAddress(address);
        return !socket.isUnresolved() && socket.getAddress().isLoopbackAddress();
    }

    /** Whether {@code address} ({@code tcp://HOST:PORT}) names every interface of this host, as 0.0.0.0 does. */
    public static boolean isWildcard(String address) {
        InetSocketAddress socket = Endpoint.socketAddress(address);
        return !socket.isUnresolved() && socket.getAddress().isAnyLocalAddress();
    }

    /**
     * Whether nothing listens at {@code address} ({@code tcp://HOST:PORT}): its host refuses a
     * connection. The kernel of a live host accepts connections on a listening socket even while
     * its process is stopped or busy, and refuses them once the process is gone, so a refusal is
     * evidence of death where silence is not: a connection that times out proves nothing.
     */
    public static boolean refusesConnections(String address, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(Endpoint.socketAddress(address), timeoutMillis);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The address an endpoint bound at {@code bound} (asked for {@code bindAddress}) gives its
     * peers: {@code advertise} when set (its port 0 meaning the bound port), else the bound address
     * itself, which must then be one a peer can connect to.
     *
     * @throws TransportException when neither is an address peers can connect to
     */
    static String advertised(String bindAddress, InetSocketAddress bound, String advertise) {
        if (advertise == null) {
            if (bound.getAddress().isAnyLocalAddress()) {
                throw new TransportException("a node bound to " + bindAddress + " listens on every interface of"
                        + " this host but names none that peers could connect to: say which with --advertise tcp://HOST[:PORT] (agent option advertise=), or bind one"
                        + " address with --bind tcp://HOST");
            }
            return "tcp://" + bound.getAddress().getHostAddress() + ":" + bound.getPort();
        }
        String normalized = normalize("the advertised address", advertise, 0);
        if (isWildcard(normalized)) {
            throw new TransportException("the advertised address " + advertise + " is a wildcard, not one peers can"
                    + " connect to: advertise this host's address on the cluster's network");
        }
        InetSocketAddress told = Endpoint.socketAddress(normalized);
        return "tcp://" + told.getHostString() + ":" + (told.getPort() == 0 ? bound.getPort() : told.getPort());
    }
}
