package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A string arrives as it left, whatever chars it holds: the program's strings travel by value. */
class WireStringsTest {
    @Test
    void everyStringComesBackCharForChar() {
        List<String> strings = List.of("", "plain", "h\u00e9llo", "\u65e5\u672c\u8a9e", "pair \uD83D\uDE00",
                "\uD800", "\uDC00", "high at the end \uD801", "low first \uDE00\uD83D", "nul\u0000\uFFFF", "x".repeat(70_000));
        WireBuffer out = new WireBuffer();
        strings.forEach(out::appendString);
        out.appendInt(42);

        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        for (String expected : strings) {
            assertEquals(expected, WireReader.string(in));
        }
        assertEquals(42, in.getInt());
    }

    @Test
    void aLengthLongerThanTheMessageIsRefused() {
        for (int length : new int[] {-3, 7, Integer.MIN_VALUE, -Integer.MAX_VALUE}) {
            ByteBuffer in = ByteBuffer.allocate(8).putInt(length).putShort((short) 'a').putShort((short) 'b').flip();
            assertThrows(IllegalArgumentException.class, () -> WireReader.string(in), "length " + length);
        }
    }
}
