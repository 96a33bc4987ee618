package dev.weft.core.parallel;

/** Work over an index range [begin, end); must write only what those indices own. */
@FunctionalInterface
public interface RangeBody {
    void run(int begin, int end);
}
