package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class ThrowablesTest {
    /** A program's exception that carries only what Throwable does. */
    static final class Plain extends RuntimeException {
        Plain(String message) {
            super(message);
        }
    }

    /** A program's exception with a field of its own, which the value written would lose. */
    static final class WithCode extends RuntimeException {
        final int code;

        WithCode(int code) {
            this.code = code;
        }
    }

    @Test
    void exceptionsThatCarryOnlyThrowablesStateTravelByValue() {
        assertTrue(Throwables.travelsByValue(new IllegalStateException("x", new RuntimeException())));
        assertTrue(Throwables.travelsByValue(new Plain("p")));
        assertTrue(Throwables.travelsByValue(new NullPointerException())); // its fields are transient caches of the message
        assertTrue(WireWriter.travelsByValue(new Plain("p")));
        assertFalse(Throwables.travelsByValue("not an exception"));
    }

    @Test
    void exceptionsWithFieldsOfTheirOwnAreRefusedNamingTheField() {
        assertFalse(Throwables.travelsByValue(new WithCode(7)));
        assertFalse(Throwables.travelsByValue(new SQLException("s", "42000", 1)));
        String why = Throwables.refusal(WithCode.class).getMessage();
        assertTrue(why.contains("WithCode.code") && why.contains(WithCode.class.getName()), why);
        assertTrue(Throwables.refusal(SQLException.class).getMessage().contains("SQLException.SQLState"),
                Throwables.refusal(SQLException.class).getMessage());
    }
}
