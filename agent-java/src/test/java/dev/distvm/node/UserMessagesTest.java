package dev.distvm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What dist says to a user (errors, refusals, warnings, the reasons a run stops) speaks of the
 * program and of what the user can do: never of the project's issues, nor of wire-level message
 * type numbers. The text of every string literal in the runtime's sources (agent, MPI, transport,
 * coordinator, rewriter) is checked, since any of them can end up on a user's terminal.
 */
class UserMessagesTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final List<String> MODULES = List.of("agent-java", "mpi", "transport", "coordinator", "rewriter");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
    private static final Pattern FORBIDDEN = Pattern.compile("(?i)\\bissues?\\b|message type");

    @Test
    void noMessageMentionsIssuesOrMessageTypes() throws IOException {
        List<String> found = new ArrayList<>();
        int literals = 0;
        for (String module : MODULES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i).strip();
                        if (line.startsWith("*") || line.startsWith("//") || line.startsWith("/*")) {
                            continue; // comments speak to developers
                        }
                        Matcher literal = LITERAL.matcher(line);
                        while (literal.find()) {
                            literals++;
                            if (FORBIDDEN.matcher(literal.group(1)).find()) {
                                found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + literal.group());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(literals > 500, "the scan found only " + literals + " string literals: is it reading the sources?");
        assertEquals(List.of(), found);
    }

    @Test
    void theCheckCatchesWhatItLooksFor() {
        assertTrue(FORBIDDEN.matcher("it is a JDK class that a later issue covers").find());
        assertTrue(FORBIDDEN.matcher("no reply to message type 71").find());
        assertTrue(!FORBIDDEN.matcher("the tissue of the program").find());
    }
}
