package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;

class StatefulEnumsTest {
    enum Planet {
        MERCURY(3.303e+23, 2.4397e6), EARTH(5.976e+24, 6.37814e6);

        private final double mass;
        private final double radius;
        private final String label = name().toLowerCase();
        private final TimeUnit unit = TimeUnit.SECONDS;

        Planet(double mass, double radius) {
            this.mass = mass;
            this.radius = radius;
        }

        double gravity() {
            return mass / (radius * radius);
        }
    }

    enum Op {
        ADD((a, b) -> a + b), MUL((a, b) -> a * b);

        private static final Map<String, Op> BY_NAME = new HashMap<>();
        static {
            for (Op op : values()) {
                BY_NAME.put(op.name(), op);
            }
        }
        private final IntBinaryOperator function;
        private final Planet home = Planet.EARTH;

        Op(IntBinaryOperator function) {
            this.function = function;
        }
    }

    enum Counter { INSTANCE; int count; }

    enum Table { ONE; final int[] cells = new int[4]; }

    enum Totals { A, B; static int total; }

    enum WithBody {
        PLAIN, COUNTING { int calls; };
    }

    enum PointsAtState { X; final Counter counter = Counter.INSTANCE; }

    @Test
    void finalImmutableValuesStrategiesAndStaticTablesAreNoState() {
        assertEquals(Optional.empty(), StatefulEnums.state(Planet.class));
        assertEquals(Optional.empty(), StatefulEnums.state(Op.class));
        assertDoesNotThrow(() -> StatefulEnums.refuse(Op.MUL));
        assertDoesNotThrow(() -> StatefulEnums.refuse(TimeUnit.SECONDS)); // a JDK enum
        assertDoesNotThrow(() -> StatefulEnums.refuse("not an enum"));
    }

    @Test
    void fieldsThatCanChangeAreStateAndNamed() {
        assertEquals("count", StatefulEnums.state(Counter.class).orElseThrow().getName());
        assertEquals("cells", StatefulEnums.state(Table.class).orElseThrow().getName());
        assertEquals("total", StatefulEnums.state(Totals.class).orElseThrow().getName());
        assertEquals("counter", StatefulEnums.state(PointsAtState.class).orElseThrow().getName());
        UnsharableException refused = assertThrows(UnsharableException.class, () -> StatefulEnums.refuse(Counter.INSTANCE));
        assertEquals(Counter.class.getName(), refused.className());
        assertTrue(refused.getMessage().contains("field count is state"), refused.getMessage());
    }

    @Test
    void aConstantsBodyWithStateIsRefusedInTheNameOfItsEnum() {
        // Its enum, asked before a constant is at hand (a worker initializing it), names the body's field too.
        assertEquals("calls", StatefulEnums.state(WithBody.class).orElseThrow().getName());
        UnsharableException refused = assertThrows(UnsharableException.class, () -> StatefulEnums.refuse(WithBody.COUNTING));
        assertEquals(WithBody.class.getName(), refused.className());
        assertTrue(refused.getMessage().contains("field calls (declared by the constant's body"), refused.getMessage());
    }
}
