package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProfileOptionsTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @Test
    void travelsIntactAsAgentArguments() throws Exception {
        ProfileOptions options = new ProfileOptions(40123, TOKEN, 5000, 0);
        String arguments = options.toAgentArguments();
        assertTrue(ProfileOptions.isProfileRequest(arguments));
        assertEquals(options, ProfileOptions.parse(arguments));
    }

    @Test
    void nodeOptionsAreNotAProfileRequest() {
        assertFalse(ProfileOptions.isProfileRequest("nodes=2"));
        assertFalse(ProfileOptions.isProfileRequest(null));
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        String start = "profile-to=40123,token=" + TOKEN;
        assertEquals("unknown profiling option 'rat' (valid: profile-to, token, duration, rate)",
                assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",rat=3")).getMessage());
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",rate=10001"))
                .getMessage().contains("'rate' must be a whole number from 0 to 10000"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse("profile-to=1,token=xyz"))
                .getMessage().contains("'token' must be the 32 hex digits"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",duration"))
                .getMessage().contains("needs one value"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse("token=" + TOKEN))
                .getMessage().contains("'profile-to' must be a whole number"));
    }
}
