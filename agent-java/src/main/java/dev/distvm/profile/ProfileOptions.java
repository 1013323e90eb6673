package dev.distvm.profile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code ./dist attach} asks of the agent it loads: where to report (a loopback port of the
 * attaching command and the token that proves the report is the one it asked for), for how long
 * to profile, and how many samples to take a second (0: count every access). Travels as the
 * agent's argument string, {@code profile-to=PORT,token=HEX,duration=MS,rate=N}.
 */
public record ProfileOptions(int reportPort, String token, long durationMillis, int samplesPerSecond) {
    public static final int DEFAULT_RATE = 1000;
    /** A ticker waking more often than this costs a core of this machine's two more than the hooks do. */
    public static final int MAX_RATE = 10_000;
    public static final long MAX_DURATION_MILLIS = 24L * 3600 * 1000;

    /** A bad value, in words that name the option and what it takes. */
    public static final class InvalidOptionException extends Exception {
        InvalidOptionException(String message) {
            super(message);
        }
    }

    public ProfileOptions {
        if (reportPort < 1 || reportPort > 65535 || token == null || !token.matches("[0-9a-f]{32}")) {
            throw new IllegalArgumentException("report port and token come from ./dist attach");
        }
    }

    /** Whether agent arguments are a profiling request (as opposed to node options). */
    public static boolean isProfileRequest(String agentArguments) {
        return agentArguments != null && agentArguments.startsWith("profile-to=");
    }

    public String toAgentArguments() {
        return "profile-to=" + reportPort + ",token=" + token + ",duration=" + durationMillis + ",rate=" + samplesPerSecond;
    }

    public static ProfileOptions parse(String agentArguments) throws InvalidOptionException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : agentArguments.split(",")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            if (!key.matches("profile-to|token|duration|rate")) {
                throw new InvalidOptionException("unknown profiling option '" + key + "' (valid: profile-to, token, duration, rate)");
            }
            if (equals < 0 || values.put(key, pair.substring(equals + 1)) != null) {
                throw new InvalidOptionException("profiling option '" + key + "' needs one value, as key=value");
            }
        }
        String token = values.getOrDefault("token", "");
        if (!token.matches("[0-9a-f]{32}")) {
            throw new InvalidOptionException("profiling option 'token' must be the 32 hex digits ./dist attach passes");
        }
        return new ProfileOptions((int) number(values, "profile-to", 1, 65535, -1), token,
                number(values, "duration", 1, MAX_DURATION_MILLIS, 30_000),
                (int) number(values, "rate", 0, MAX_RATE, DEFAULT_RATE));
    }

    private static long number(Map<String, String> values, String key, long min, long max, long absent)
            throws InvalidOptionException {
        String text = values.get(key);
        if (text == null && absent >= 0) {
            return absent;
        }
        try {
            long value = Long.parseLong(text == null ? "" : text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidOptionException("profiling option '" + key + "' must be a whole number from " + min + " to " + max
                + ", got '" + text + "'");
    }
}
