package dev.distvm.mpi.launch;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where mpirun's ranks run: the hosts of {@code --hosts a,b} or {@code --hostfile FILE}, each with
 * a number of slots (1 unless the host file says {@code slots=N}). Ranks fill the slots in order,
 * host after host, and start again at the first host when there are more ranks than slots, so
 * one slot per host places ranks round robin, as MPJ Express does. A host that is this machine
 * (localhost, or an address of one of its interfaces) runs its ranks as mpirun's children; any
 * other is reached through its daemon ({@code dist daemon}, at port {@value Daemon#DEFAULT_PORT}
 * unless the entry says {@code HOST:PORT}).
 */
record Hosts(List<Host> hosts) {
    private static final Pattern ENTRY = Pattern.compile("([^\\s:#]+)(?::(\\d{1,5}))?(?:\\s+slots=(\\d{1,4}))?");

    /** One host: its name or address, its daemon's port, its slots, and whether it is this machine. */
    record Host(String name, int port, int slots, boolean local) {
        String daemon() {
            return "tcp://" + name + ":" + port;
        }

        /** Whether ranks placed here listen on loopback: only when every rank of the job runs on this machine. */
        boolean loopback() {
            try {
                return InetAddress.getByName(name).isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }
    }

    static final Hosts LOCAL = new Hosts(List.of(new Host("localhost", Daemon.DEFAULT_PORT, 1, true)));

    /** {@code --hosts a,b:7200,c}. */
    static Hosts ofList(String list) {
        List<Host> hosts = new ArrayList<>();
        for (String entry : list.split(",")) {
            hosts.add(entry(entry.trim(), "--hosts"));
        }
        return new Hosts(hosts);
    }

    /** A host file: a host per line ({@code HOST[:PORT] [slots=N]}), blank lines and {@code #} comments ignored. */
    static Hosts ofFile(Path file) {
        List<Host> hosts = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read host file " + file + ": " + e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (!line.isEmpty()) {
                hosts.add(entry(line, file + " line " + (i + 1)));
            }
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("host file " + file + " names no host");
        }
        return new Hosts(hosts);
    }

    private static Host entry(String text, String where) {
        Matcher entry = ENTRY.matcher(text);
        if (!entry.matches()) {
            throw new IllegalArgumentException(where + ": '" + text + "' is not HOST[:PORT] [slots=N]");
        }
        int port = entry.group(2) == null ? Daemon.DEFAULT_PORT : Integer.parseInt(entry.group(2));
        int slots = entry.group(3) == null ? 1 : Integer.parseInt(entry.group(3));
        if (port < 1 || port > 65535 || slots < 1) {
            throw new IllegalArgumentException(where + ": '" + text + "' needs a port from 1 to 65535 and at least one slot");
        }
        return new Host(entry.group(1), port, slots, isThisMachine(entry.group(1), where));
    }

    private static boolean isThisMachine(String name, String where) {
        try {
            InetAddress address = InetAddress.getByName(name);
            return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(where + ": unknown host '" + name + "'");
        } catch (SocketException e) {
            throw new IllegalArgumentException(where + ": cannot tell whether '" + name + "' is this machine: "
                    + e.getMessage());
        }
    }

    /** The host of each of {@code ranks} ranks. */
    List<Host> place(int ranks) {
        List<Host> slots = new ArrayList<>();
        for (Host host : hosts) {
            for (int i = 0; i < host.slots(); i++) {
                slots.add(host);
            }
        }
        List<Host> placed = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            placed.add(slots.get(rank % slots.size()));
        }
        return placed;
    }

    /** The first host that is not this machine, or null when every one is. */
    Host firstRemote() {
        return hosts.stream().filter(h -> !h.local()).findFirst().orElse(null);
    }

    /** This machine's address on the way to {@code host}: where ranks there can reach mpirun and its coordinator. */
    static String addressToward(Host host) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(host.name()), host.port()); // sends nothing: asks the routing table
            return probe.getLocalAddress().getHostAddress();
        } catch (IOException e) {
            throw new IllegalArgumentException("no route to host '" + host.name() + "': " + e.getMessage()
                    + " (give mpirun --bind tcp://ADDRESS, this host's address on the hosts' network)");
        }
    }
}
