package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The samples and the benchmarks get MPI from the mpi module, never from the agent: their main
 * sources name no package of agent-java, and their poms depend on agent-java at most for its
 * multi-JVM test helpers (the test jar). Programs written against the mpiJava API must keep
 * compiling without the agent, as they did before MPI had a module of its own.
 */
class AgentFreeModulesTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final List<String> MODULES = List.of("samples", "perf");
    /** agent-java's packages: the agent, the node runtime, the object space, its I/O, report and exit helpers, the CLI, the rewriting pipeline. */
    private static final Pattern AGENT_PACKAGE = Pattern.compile("\\bdev\\.distvm\\.(agent|node|objectspace|io|report|exit|cli|rewriter)\\b");
    /**
     * Comments, and string literals: a class named in a string is the main class of a child JVM
     * (a benchmark starting a worker from dist.jar), not code that compiles against the agent.
     * Matched in one pass, so that "tcp://..." in a string is not taken for a comment.
     */
    private static final Pattern NOT_CODE = Pattern.compile("\"(?:\\\\.|[^\"\\\\\\n])*\"|/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

    @Test
    void mainSourcesNameNoAgentPackage() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String module : MODULES) {
            try (Stream<Path> sources = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path file : (Iterable<Path>) sources.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    files++;
                    agentPackages(Files.readString(file)).forEach(name -> found.add(ROOT.relativize(file) + ": " + name));
                }
            }
        }
        assertTrue(files > 20, "the scan found only " + files + " source files: is it reading the sources?");
        assertEquals(List.of(), found);
    }

    @Test
    void pomsDependOnTheAgentOnlyForTestHelpers() throws IOException {
        for (String module : MODULES) {
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            assertTrue(pom.contains("<artifactId>dist-mpi</artifactId>"), module + " gets MPI from the mpi module");
            assertFalse(dependsOnTheAgent(pom), module + "/pom.xml depends on dist-agent other than its test jar");
        }
    }

    @Test
    void theChecksCatchWhatTheyLookFor() {
        assertEquals(List.of("dev.distvm.node"), agentPackages("import dev.distvm.node.ChildJvm;\nimport mpi.MPI;"));
        assertEquals(List.of("dev.distvm.cli"), agentPackages("class A { Object main = dev.distvm.cli.Main.class; }"));
        assertEquals(List.of(), agentPackages("import dev.distvm.mpi.launch.MpiRun; // not dev.distvm.agent.Agent\n/** dev.distvm.objectspace */"));
        assertEquals(List.of(), agentPackages("List<String> command = List.of(\"-cp\", jar, \"dev.distvm.agent.WorkerMain\");"));
        assertEquals(List.of("dev.distvm.exit"), agentPackages("String a = \"tcp://h:1\"; int s = dev.distvm.exit.Exits.NODE_LOST;"));
        assertTrue(dependsOnTheAgent("<dependency><groupId>dev.distvm</groupId><artifactId>dist-agent</artifactId></dependency>"));
        assertFalse(dependsOnTheAgent("<dependency><artifactId>dist-agent</artifactId><type>test-jar</type>"
                + "<scope>test</scope></dependency>"));
    }

    /** The agent packages that {@code source}'s code (not its comments) names, in order. */
    private static List<String> agentPackages(String source) {
        List<String> names = new ArrayList<>();
        Matcher name = AGENT_PACKAGE.matcher(NOT_CODE.matcher(source).replaceAll(""));
        while (name.find()) {
            names.add(name.group());
        }
        return names;
    }

    private static boolean dependsOnTheAgent(String pom) {
        Matcher dependency = DEPENDENCY.matcher(pom);
        while (dependency.find()) {
            String body = dependency.group(1);
            if (body.contains("<artifactId>dist-agent</artifactId>") && !body.contains("<type>test-jar</type>")) {
                return true;
            }
        }
        return false;
    }
}
