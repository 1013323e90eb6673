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

class PerNodeStateTest {
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

    interface Constants {
        int LIMIT = 10;
        String NAME = "constants";
        IntBinaryOperator MAX = Math::max;
    }

    interface Results {
        int[] CELLS = new int[4];
    }

    @Test
    void anInterfaceHoldingAnArrayHasStateOneOfConstantsAndStrategiesHasNot() {
        assertEquals(Optional.empty(), PerNodeState.state(Constants.class));
        assertDoesNotThrow(() -> PerNodeState.refuseStaticsOf(Constants.class));
        assertEquals("CELLS", PerNodeState.state(Results.class).orElseThrow().getName());
        UnsharableException refused = assertThrows(UnsharableException.class, () -> PerNodeState.refuseStaticsOf(Results.class));
        assertEquals(Results.class.getName(), refused.className());
        assertTrue(refused.getMessage().contains("an interface is initialized on every node"), refused.getMessage());
        assertEquals(Optional.empty(), PerNodeState.state(Runnable.class)); // a JDK interface is not the program's
    }

    @Test
    void finalImmutableValuesStrategiesAndStaticTablesAreNoState() {
        assertEquals(Optional.empty(), PerNodeState.state(Planet.class));
        assertEquals(Optional.empty(), PerNodeState.state(Op.class));
        assertDoesNotThrow(() -> PerNodeState.refuse(Op.MUL));
        assertDoesNotThrow(() -> PerNodeState.refuse(TimeUnit.SECONDS)); // a JDK enum
        assertDoesNotThrow(() -> PerNodeState.refuse("not an enum"));
    }

    @Test
    void fieldsThatCanChangeAreStateAndNamed() {
        assertEquals("count", PerNodeState.state(Counter.class).orElseThrow().getName());
        assertEquals("cells", PerNodeState.state(Table.class).orElseThrow().getName());
        assertEquals("total", PerNodeState.state(Totals.class).orElseThrow().getName());
        assertThrows(UnsharableException.class, () -> PerNodeState.refuseStaticsOf(Totals.class));
        assertEquals("counter", PerNodeState.state(PointsAtState.class).orElseThrow().getName());
        UnsharableException refused = assertThrows(UnsharableException.class, () -> PerNodeState.refuse(Counter.INSTANCE));
        assertEquals(Counter.class.getName(), refused.className());
        assertTrue(refused.getMessage().contains("field count is state"), refused.getMessage());
    }

    @Test
    void aConstantsBodyWithStateIsRefusedInTheNameOfItsEnum() {
        // Its enum, asked before a constant is at hand (a worker initializing it), names the body's field too.
        assertEquals("calls", PerNodeState.state(WithBody.class).orElseThrow().getName());
        UnsharableException refused = assertThrows(UnsharableException.class, () -> PerNodeState.refuse(WithBody.COUNTING));
        assertEquals(WithBody.class.getName(), refused.className());
        assertTrue(refused.getMessage().contains("field calls (declared by the constant's body"), refused.getMessage());
    }
}
