package dev.weft.core.model;

import dev.weft.core.util.IntList;
import java.util.List;

/**
 * What is drawn and exported of a model: its triangles over its particles, except that a body with a
 * {@link Skin} is drawn as that skin's surface instead of its own triangles. Vertices are the particles
 * (same indices) followed by the skins' vertices, so everything that indexes particles (ropes' polylines,
 * picking) keeps its meaning. Without skins it is the model's own arrays, and {@link #positions} returns the
 * particle positions themselves.
 */
public final class DrawnSurface {
    private final Model model;
    private final List<Skin> skins;
    private final int vertexCount;
    private final int[] triangles;
    private final float[] uvs;
    private final int[] skinObject;
    /** Per body, its drawn triangles' range (null without skins: the model's own). */
    private final int[] firstTriangle;
    private final int[] triangleCount;
    private float[] buffer;

    DrawnSurface(Model model, List<Skin> skins) {
        this.model = model;
        this.skins = skins;
        int n = model.particleCount();
        if (skins.isEmpty()) {
            vertexCount = n;
            triangles = model.triangles();
            uvs = model.uvs();
            skinObject = new int[0];
            firstTriangle = null;
            triangleCount = null;
            return;
        }
        List<ModelObject> objects = model.objects();
        Skin[] skinOf = new Skin[objects.size()];
        int extra = 0;
        int[] skinFirst = new int[objects.size()];
        for (Skin s : skins) {
            skinOf[s.body()] = s;
            skinFirst[s.body()] = n + extra;
            extra += s.vertexCount();
        }
        vertexCount = n + extra;
        // object by object: its own triangles, or its skin's
        int[] own = model.triangles();
        IntList out = new IntList(own.length);
        firstTriangle = new int[objects.size()];
        triangleCount = new int[objects.size()];
        for (int o = 0; o < objects.size(); o++) {
            firstTriangle[o] = out.size() / 3;
            Skin s = skinOf[o];
            if (s != null) {
                for (int i : s.triangles()) {
                    out.add(skinFirst[o] + i);
                }
            } else {
                ModelObject body = objects.get(o);
                for (int k = 3 * body.firstTriangle(); k < 3 * (body.firstTriangle() + body.triangleCount()); k++) {
                    out.add(own[k]);
                }
            }
            triangleCount[o] = out.size() / 3 - firstTriangle[o];
        }
        triangles = out.toArray();
        uvs = java.util.Arrays.copyOf(model.uvs(), 2 * vertexCount);
        skinObject = new int[extra];
        for (Skin s : skins) {
            int first = skinFirst[s.body()];
            System.arraycopy(s.uvs(), 0, uvs, 2 * first, s.uvs().length);
            java.util.Arrays.fill(skinObject, first - n, first - n + s.vertexCount(), s.body());
        }
    }

    /** The first drawn triangle of body o: a body's drawn triangles are one range. */
    public int firstTriangle(int o) {
        return firstTriangle == null ? model.objects().get(o).firstTriangle() : firstTriangle[o];
    }

    /** How many triangles body o is drawn with. */
    public int triangleCount(int o) {
        return triangleCount == null ? model.objects().get(o).triangleCount() : triangleCount[o];
    }

    public boolean skinned() {
        return !skins.isEmpty();
    }

    /** Particles, then the skins' vertices in the order of their bodies. */
    public int vertexCount() {
        return vertexCount;
    }

    /** Three drawn vertex indices per triangle. Do not modify. */
    public int[] triangles() {
        return triangles;
    }

    /** Two texture coordinates per drawn vertex. Do not modify. */
    public float[] uvs() {
        return uvs;
    }

    /** The body a drawn vertex belongs to. */
    public int objectOf(int vertex) {
        int n = model.particleCount();
        return vertex < n ? model.objectOf(vertex) : skinObject[vertex - n];
    }

    /**
     * The drawn vertices' positions for particle positions x: x itself without skins; else an array this
     * surface keeps (overwritten by the next call: one caller at a time).
     */
    public float[] positions(float[] x) {
        if (skins.isEmpty()) {
            return x;
        }
        if (buffer == null) {
            buffer = new float[3 * vertexCount];
        }
        positions(x, buffer);
        return buffer;
    }

    /** The drawn vertices' positions for particle positions x into out (3 · {@link #vertexCount()} floats). */
    public void positions(float[] x, float[] out) {
        int n = model.particleCount();
        System.arraycopy(x, 0, out, 0, 3 * n);
        int first = n;
        for (Skin s : skins) {
            s.positions(x, out, first);
            first += s.vertexCount();
        }
    }
}
