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
        ProfileOptions options = new ProfileOptions(40123, TOKEN, 5000, 1);
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
        assertEquals("unknown profiling option 'sampel' (valid: profile-to, token, duration, sample)",
                assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",sampel=3")).getMessage());
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",sample=0"))
                .getMessage().contains("'sample' must be a whole number from 1"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse("profile-to=1,token=xyz"))
                .getMessage().contains("'token' must be the 32 hex digits"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse(start + ",duration"))
                .getMessage().contains("needs one value"));
        assertTrue(assertThrows(ProfileOptions.InvalidOptionException.class, () -> ProfileOptions.parse("token=" + TOKEN))
                .getMessage().contains("'profile-to' must be a whole number"));
    }
}
