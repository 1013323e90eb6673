package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThrowablesTest {
    /** A program's exception that carries only what Throwable does. */
    static final class Plain extends RuntimeException {
        Plain(String message) {
            super(message);
        }
    }

    /** A program's exception with fields of its own that hold values: they travel with it. */
    static class WithCode extends RuntimeException {
        final int code;
        final String detail;
        Long elapsed;
        TimeUnit unit = TimeUnit.SECONDS;

        WithCode(int code, String detail) {
            super("failed with " + code);
            this.code = code;
            this.detail = detail;
        }
    }

    /** A subclass that declares a field of its superclass's name: each is carried under its own class. */
    static final class Shadowing extends WithCode {
        final double code;

        Shadowing(int code, double shadow) {
            super(code, null);
            this.code = shadow;
        }
    }

    /** A program's exception with a reference to an object of its own: the value written would lose it. */
    static final class WithContext extends RuntimeException {
        final List<String> context = List.of("a");
    }

    @Test
    void exceptionsThatCarryOnlyThrowablesStateOrValuesTravelByValue() {
        assertTrue(Throwables.travelsByValue(new IllegalStateException("x", new RuntimeException())));
        assertTrue(Throwables.travelsByValue(new Plain("p")));
        assertTrue(Throwables.travelsByValue(new NullPointerException())); // its fields are transient caches of the message
        assertTrue(Throwables.travelsByValue(new WithCode(7, "disk")));
        assertTrue(WireWriter.travelsByValue(new Plain("p")));
        assertFalse(Throwables.travelsByValue("not an exception"));
    }

    @Test
    void exceptionsWithReferencesOfTheirOwnAreRefusedNamingTheField() {
        assertFalse(Throwables.travelsByValue(new WithContext()));
        assertFalse(Throwables.travelsByValue(new SQLException("s", "42000", 1)));
        String why = Throwables.refusal(WithContext.class).getMessage();
        assertTrue(why.contains("WithContext.context") && why.contains(WithContext.class.getName()), why);
        assertTrue(Throwables.refusal(SQLException.class).getMessage().contains("SQLException.next"),
                Throwables.refusal(SQLException.class).getMessage());
    }

    @Test
    void anExceptionsValueFieldsArriveWithIt() {
        WithCode sent = new WithCode(42, "disk full");
        sent.elapsed = 1_500L;
        sent.unit = TimeUnit.MILLISECONDS;
        Shadowing shadowing = new Shadowing(3, 2.5);
        WireBuffer out = new WireBuffer();
        UncaughtExceptions.write(sent, out, getClass().getClassLoader());
        UncaughtExceptions.write(shadowing, out, getClass().getClassLoader());

        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        WithCode arrived = (WithCode) UncaughtExceptions.read(in, getClass().getClassLoader());
        assertEquals(List.of("failed with 42", "42", "disk full", "1500", "MILLISECONDS"), List.of(arrived.getMessage(),
                String.valueOf(arrived.code), arrived.detail, String.valueOf(arrived.elapsed), arrived.unit.name()));
        Shadowing both = (Shadowing) UncaughtExceptions.read(in, getClass().getClassLoader());
        assertEquals(3, ((WithCode) both).code);
        assertEquals(2.5, both.code);
        assertEquals(0, in.remaining());
    }

    @Test
    void aCopyAcceptsACauseWhereTheOriginalWouldAndOnlyThere() {
        WireBuffer out = new WireBuffer();
        UncaughtExceptions.write(new RuntimeException("no cause yet"), out, getClass().getClassLoader());
        UncaughtExceptions.write(new RuntimeException("null cause", null), out, getClass().getClassLoader());
        UncaughtExceptions.write(new RuntimeException("wrapper", new Plain("root")), out, getClass().getClassLoader());

        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        Throwable open = UncaughtExceptions.read(in, getClass().getClassLoader());
        Throwable root = new IllegalArgumentException("root");
        assertEquals(null, open.getCause());
        open.initCause(root);
        assertEquals(root, open.getCause());
        Throwable closed = UncaughtExceptions.read(in, getClass().getClassLoader());
        assertEquals(null, closed.getCause());
        assertThrows(IllegalStateException.class, () -> closed.initCause(root));
        Throwable wrapper = UncaughtExceptions.read(in, getClass().getClassLoader());
        assertEquals("root", wrapper.getCause().getMessage());
        assertEquals(null, wrapper.getCause().getCause());
        assertThrows(IllegalStateException.class, () -> wrapper.initCause(root));
        assertEquals(0, in.remaining());
    }
}
