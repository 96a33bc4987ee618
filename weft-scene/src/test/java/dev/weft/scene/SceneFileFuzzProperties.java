package dev.weft.scene;

import dev.weft.core.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The scene reader on mangled scene files: every input is either a scene or an {@link InvalidInputException}
 * with a message, never another exception (a NullPointerException, a ClassCastException, a stack overflow)
 * and never a hang. Inputs are the shipped default scene with characters deleted, inserted or replaced.
 */
class SceneFileFuzzProperties {
    private static final String BASE;

    static {
        try {
            BASE = Files.readString(Path.of("..", "scenes", "drape.json"));
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Provide
    Arbitrary<String> mangled() {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, BASE.length() - 1);
        Arbitrary<Character> c = Arbitraries.of('{', '}', '[', ']', '"', ',', ':', '-', '0', '9', 'e', '.', ' ', 'x',
                '\n', '/', '*', 'n');
        Arbitrary<Integer> op = Arbitraries.integers().between(0, 2);
        return Combinators.combine(at, c, op).as(Tuple::of).list().ofMinSize(1).ofMaxSize(6).map(edits -> {
            StringBuilder s = new StringBuilder(BASE);
            for (var e : edits) {
                int i = Math.min(e.get1(), s.length() - 1);
                switch (e.get3()) {
                    case 0: s.deleteCharAt(i); break;
                    case 1: s.insert(i, e.get2().charValue()); break;
                    default: s.setCharAt(i, e.get2()); break;
                }
            }
            return s.toString();
        });
    }

    @Property(tries = 300, seed = "20261125")
    void aMangledSceneIsAMessageNeverACrash(@ForAll("mangled") String text) {
        try {
            SceneFile.parse("fuzz.json", text, Path.of("."));
        } catch (InvalidInputException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("fuzz.json")) {
                throw new AssertionError("a message without the file: " + e.getMessage());
            }
        }
    }
}
