package dev.distvm.perf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a benchmark: {@code --name value} options, {@code --flag}s and the remaining
 * arguments. {@code --help} prints the usage and exits; a bad option or value exits with status 2
 * and says which, with the usage.
 */
final class BenchmarkOptions {
    private final String usage;
    private final Map<String, String> values = new HashMap<>();
    private final List<String> flags = new ArrayList<>();
    private final List<String> rest = new ArrayList<>();

    private BenchmarkOptions(String usage) {
        this.usage = usage;
    }

    /**
     * @param valued options that take a value
     * @param flags  options that stand alone
     * @param takesRest whether arguments that are not options are accepted
     */
    static BenchmarkOptions parse(String[] args, String usage, Set<String> valued, Set<String> flags, boolean takesRest) {
        BenchmarkOptions options = new BenchmarkOptions(usage);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println(usage);
                System.exit(0);
            } else if (valued.contains(arg)) {
                if (i + 1 == args.length) {
                    options.fail(arg + " needs a value");
                }
                options.values.put(arg, args[++i]);
            } else if (flags.contains(arg)) {
                options.flags.add(arg);
            } else if (takesRest && !arg.startsWith("-")) {
                options.rest.add(arg);
            } else {
                options.fail("unknown option " + arg);
            }
        }
        return options;
    }

    String value(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    /** A positive whole number. */
    int count(String name, int otherwise) {
        String text = values.get(name);
        if (text == null) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        fail(name + " must be a positive whole number, got '" + text + "'");
        return otherwise;
    }

    /** A comma-separated list of positive whole numbers, such as {@code 1,2,4}. */
    List<Integer> counts(String name, String otherwise) {
        String text = values.getOrDefault(name, otherwise);
        List<Integer> counts = new ArrayList<>();
        try {
            for (String count : text.split(",")) {
                counts.add(Integer.parseInt(count.strip()));
            }
        } catch (NumberFormatException e) {
            fail(name + " is a list of whole numbers such as " + otherwise + ", not '" + text + "'");
        }
        if (counts.stream().anyMatch(n -> n < 1)) {
            fail(name + " counts from 1, not '" + text + "'");
        }
        return counts;
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    List<String> rest() {
        return rest;
    }

    void fail(String problem) {
        System.err.println("error: " + problem);
        System.err.println(usage);
        System.exit(2);
    }
}
