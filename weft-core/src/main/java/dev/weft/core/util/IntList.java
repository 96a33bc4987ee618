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

    public int size() {
        return size;
    }

    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
