package dev.weft.core.util;

import java.util.Arrays;

/** A growable list of floats for builders (never used inside a simulation step). */
public final class FloatList {
    private float[] data;
    private int size;

    public FloatList() {
        this(16);
    }

    public FloatList(int capacity) {
        data = new float[Math.max(4, capacity)];
    }

    /** A list holding a copy of {@code values}. */
    public static FloatList of(float[] values) {
        return of(values, 0);
    }

    /** A list holding a copy of {@code values}, with room for {@code room} more before it grows (a copy of it all). */
    public static FloatList of(float[] values, int room) {
        FloatList l = new FloatList(values.length + room);
        System.arraycopy(values, 0, l.data, 0, values.length);
        l.size = values.length;
        return l;
    }

    public void add(float v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        data[size++] = v;
    }

    public void add(float x, float y, float z) {
        add(x);
        add(y);
        add(z);
    }

    public float get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return data[i];
    }

    public void set(int i, float v) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        data[i] = v;
    }

    public int size() {
        return size;
    }

    public float[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
