package dev.weft.core.util;

import java.util.Arrays;

/** A growable list of ints for builders (never used inside a simulation step). */
public final class IntList {
    private int[] data;
    private int size;

    public IntList() {
        this(16);
    }

    public IntList(int capacity) {
        data = new int[Math.max(4, capacity)];
    }

    /** A list holding a copy of {@code values}. */
    public static IntList of(int[] values) {
        return of(values, 0);
    }

    /** A list holding a copy of {@code values}, with room for {@code room} more before it grows (a copy of it all). */
    public static IntList of(int[] values, int room) {
        IntList l = new IntList(values.length + room);
        System.arraycopy(values, 0, l.data, 0, values.length);
        l.size = values.length;
        return l;
    }

    public void add(int v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        data[size++] = v;
    }

    public void add(int a, int b) {
        add(a);
        add(b);
    }

    public int get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return data[i];
    }

    public void set(int i, int v) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        data[i] = v;
    }

    /** Removes the first occurrence of {@code v}, moving the last element into its place; false if absent. */
    public boolean removeValue(int v) {
        for (int i = 0; i < size; i++) {
            if (data[i] == v) {
                data[i] = data[--size];
                return true;
            }
        }
        return false;
    }

    public boolean contains(int v) {
        for (int i = 0; i < size; i++) {
            if (data[i] == v) {
                return true;
            }
        }
        return false;
    }

    public void clear() {
        size = 0;
    }

    public int size() {
        return size;
    }

    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
