package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileFilesTest {
    /** A thread may be called anything: its name must not end the page's data early. */
    private static final String JSON = "{\"placement\": [{\"name\": \"</script><script>alert(1)\"}]}";

    @TempDir
    Path directory;

    @Test
    void writesJsonAsItIsAndHtmlWithTheDataInsideItsScriptElement() throws Exception {
        Path json = directory.resolve("p.json");
        ProfileFiles.write(json, JSON);
        assertEquals(JSON + "\n", Files.readString(json));

        Path html = directory.resolve("p.html");
        ProfileFiles.write(html, JSON);
        String page = Files.readString(html);
        int data = page.indexOf("<script type=\"application/json\" id=\"profile-data\">");
        assertTrue(data > 0, page);
        String dataElement = page.substring(data, page.indexOf("</script>", data));
        assertTrue(dataElement.endsWith("{\"placement\": [{\"name\": \"<\\/script><script>alert(1)\"}]}"), dataElement);
        assertFalse(page.contains("/*PROFILE_JSON*/"), "the data's place was filled");
    }

    @Test
    void namesAJsonOrAnHtmlFile() {
        assertTrue(ProfileFiles.isProfileName("run.json"));
        assertTrue(ProfileFiles.isProfileName("run.html"));
        assertFalse(ProfileFiles.isProfileName("run.txt"));
    }
}
