package dev.distvm.profile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A profile written to a file: JSON as it is, or a self-contained HTML report whose page draws its
 * charts from the same JSON (no network, no files beside it), by the file's name.
 */
public final class ProfileFiles {
    private static final String TEMPLATE = "report.html";
    private static final String DATA_PLACE = "/*PROFILE_JSON*/";

    private ProfileFiles() {}

    /** Whether {@code name} names a file a profile can be written to. */
    public static boolean isProfileName(String name) {
        return name.endsWith(".json") || name.endsWith(".html");
    }

    public static void write(Path file, String json) throws IOException {
        Files.writeString(file, file.getFileName().toString().endsWith(".html") ? html(json) : json + "\n");
    }

    static String html(String json) throws IOException {
        String template;
        try (InputStream in = ProfileFiles.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IOException("dist.jar lacks the HTML report's page (" + TEMPLATE + "): rebuild it");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // "</" would end the script element that carries the data; "<\/" is the same JSON string.
        return template.replace(DATA_PLACE, json.replace("</", "<\\/"));
    }
}
