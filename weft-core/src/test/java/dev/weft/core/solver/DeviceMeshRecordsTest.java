package dev.weft.core.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.ConstantVelocityMotion;
import dev.weft.core.collide.Icosphere;
import dev.weft.core.collide.MeshCollider;
import dev.weft.core.collide.ParticleSurface;
import dev.weft.core.collide.SphereCollider;
import dev.weft.core.geom.TriangleBvh;
import dev.weft.core.geom.TriangleClosestPoint;
import dev.weft.core.interact.Blade;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.testing.DeviceTestScenes;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A triangle mesh as the OpenCL solvers receive it ({@link DeviceColliderRecords} with every rigid shape, the
 * hierarchy from {@link TriangleBvh#writeFlat}): a query that walks only the flat floats, as colliders.cl's
 * {@code mesh_distance} does, finds for 5,000 points about an icosphere of 1,280 triangles the very closest
 * point, region and face normal {@link TriangleBvh#closest} finds (every float equal: the same floats in the same
 * order); the record points at the hierarchy; a new particle surface keeps the hierarchy (not uploaded again);
 * an animated mesh's topology goes into the fields once and its two meshes of the step into the step state at
 * each {@code refreshPoses}; the GLSL compute solvers refuse meshes, OpenCL projectiles. Needs no device.
 */
class DeviceMeshRecordsTest {
    @Test
    void aQueryOverTheFlatHierarchyFindsWhatTheHierarchyFinds() {
        TriangleMesh mesh = Icosphere.of(0.2f, 3);
        TriangleBvh bvh = new TriangleBvh(mesh.positions(), mesh.triangles());
        float[] flat = new float[bvh.flatSize() + 5];
        bvh.writeFlat(flat, 5);
        assertThat(bvh.depth()).as("median splits: at most log2(n) + 1 levels").isLessThanOrEqualTo(
                (int) Math.ceil(Math.log(bvh.triangleCount()) / Math.log(2)) + 1);
        SplittableRandom rnd = new SplittableRandom(3);
        TriangleBvh.Query q = new TriangleBvh.Query();
        float[] normal = new float[3];
        for (int k = 0; k < 5000; k++) {
            float x = (float) rnd.nextDouble(-0.3, 0.3);
            float y = (float) rnd.nextDouble(-0.3, 0.3);
            float z = (float) rnd.nextDouble(-0.3, 0.3);
            assertThat(bvh.closest(x, y, z, Float.POSITIVE_INFINITY, q)).isTrue();
            bvh.normal(q.triangle, normal);
            float[] found = flatClosest(flat, 5, TriangleBvh.FLAT_NODE * bvh.nodeCount(), x, y, z);
            assertThat(found).as("point %d: closest xyz, squared distance, region, normal", k)
                    .containsExactly(q.x, q.y, q.z, q.value, q.region, normal[0], normal[1], normal[2]);
        }
    }

    @Test
    void theRecordPointsAtTheHierarchyWhichANewSurfaceKeeps() {
        MeshCollider box = DeviceTestScenes.tiltedMeshBox();
        Collider[] colliders = {DeviceTestScenes.ball(), box};
        DeviceColliderRecords records = new DeviceColliderRecords("the test's solvers", true);
        assertThat(records.encode(colliders, ParticleSurface.PLAIN)).isTrue();
        assertThat(records.fieldsChanged()).isTrue();
        int o = DeviceColliderRecords.RIGID_STRIDE;
        assertThat(records.types()[1]).isEqualTo(DeviceColliderRecords.MESH);
        float[] data = records.records();
        int start = o + Float.floatToRawIntBits(data[o + 12]) - data.length;
        assertThat(start).as("the hierarchy's first float among the fields").isZero();
        assertThat(Float.floatToRawIntBits(data[o + 19])).isEqualTo(box.hierarchyTrianglesAt());
        float[] expected = new float[box.hierarchySize()];
        box.writeHierarchy(expected, 0);
        float[] fields = records.fields();
        assertThat(fields).containsExactly(expected);
        float reach2 = data[o + 17];
        // the same colliders for a model with thicker sheets: a wider reach in the record, the same fields
        assertThat(records.encode(colliders, new ParticleSurface(null, new float[] {0.01f}))).isTrue();
        assertThat(records.fieldsChanged()).isFalse();
        assertThat(records.fields()).isSameAs(fields);
        assertThat(records.records()[o + 17]).as("squared reach").isGreaterThan(reach2);
        // other colliders: encoded anew
        assertThat(records.encode(new Collider[] {box}, ParticleSurface.PLAIN)).isTrue();
        assertThat(records.fieldsChanged()).isTrue();
    }

    @Test
    void anAnimatedMeshsTopologyGoesOnceItsMeshesEveryStep() {
        AnimatedMeshCollider ball = DeviceTestScenes.risingAnimatedBall();
        Collider[] colliders = {ball};
        DeviceColliderRecords records = new DeviceColliderRecords("the test's solvers", true);
        records.encode(colliders, ParticleSurface.PLAIN);
        assertThat(records.types()[0]).isEqualTo(DeviceColliderRecords.ANIMATED);
        float[] data = records.records();
        assertThat(Float.floatToRawIntBits(data[4])).as("the topology, from the record").isEqualTo(data.length);
        assertThat(Float.floatToRawIntBits(data[5])).as("the step state, from the record")
                .isEqualTo(data.length + records.fields().length);
        assertThat(records.fields()).hasSize(ball.topologySize());
        assertThat(records.stepState()).hasSize(ball.stepStateSize());
        assertThat(data[3]).as("no vertex moved before the first advance").isZero();
        // a step between the frames: the records say how far a vertex moves, the step state holds both meshes
        ball.advance(0.07, 0.01f);
        assertThat(records.refreshPoses()).isTrue();
        assertThat(records.records()[3]).isEqualTo(ball.maxVertexStep()).isPositive();
        float[] expected = new float[ball.stepStateSize()];
        ball.writeStepState(expected, 0);
        assertThat(records.stepState()).containsExactly(expected);
        float[] current = new float[3 * ball.vertexCount()];
        ball.currentPositions(current);
        assertThat(Arrays.copyOfRange(expected, expected.length - current.length, expected.length))
                .containsExactly(current);
    }

    @Test
    void glslMeshesAndProjectilesAreStillRefusedOpenClProjectilesAreRecords() {
        assertThatThrownBy(() -> DeviceColliderRecords.requireSupported("the GLSL compute solvers",
                DeviceTestScenes.rock())).isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("is a MeshCollider, which the GLSL compute solvers do not support yet");
        assertThatThrownBy(() -> DeviceColliderRecords.requireSupported("the GLSL compute solvers",
                DeviceTestScenes.animatedRock())).isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("is an AnimatedMeshCollider, which the GLSL compute solvers do not support yet "
                        + "(they run still planes and spheres and drag handles); use the cpu backend");
        // projectiles are records with every rigid shape (OpenCL's collide_ball), not on GLSL
        assertThatThrownBy(() -> DeviceColliderRecords.requireSupported("the GLSL compute solvers",
                DeviceTestScenes.cannonball())).isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("is a Projectile, which the GLSL compute solvers do not support yet");
        DeviceColliderRecords.requireSupported("the OpenCL solvers", DeviceTestScenes.cannonball(), true);
        // a blade is no record (the OpenCL solvers leave it to the host): the records name what they hold
        float[] still = new float[3];
        assertThatThrownBy(() -> DeviceColliderRecords.requireSupported("the OpenCL solvers", new Blade("knife",
                new float[] {0f, 1f, 0f}, new float[] {0f, 1f, 1f}, new ConstantVelocityMotion(still,
                new float[] {1f, 0f, 0f, 0f}, still, still)), true)).isInstanceOf(UnsupportedOnDeviceException.class)
                .hasMessageContaining("is a Blade, which the OpenCL solvers do not support yet (they run planes, "
                        + "spheres, boxes, capsules, cylinders, ellipsoids, funnels, rectangles, distance fields, "
                        + "triangle meshes, still or moving, animated meshes, grips, projectiles, and drag handles)");
        DeviceColliderRecords.requireSupported("the OpenCL solvers", DeviceTestScenes.rock(), true);
        DeviceColliderRecords.requireSupported("the OpenCL solvers", DeviceTestScenes.animatedRock(), true);
        DeviceColliderRecords.requireSupported("the OpenCL solvers", new SphereCollider("s", new float[3], 1f, 0f,
                0f), false);
    }

    /**
     * colliders.cl's traversal on the flat floats (nodes at {@code at}, triangle slots {@code slots} after them):
     * closest xyz, squared distance, region and the closest slot's normal.
     */
    private static float[] flatClosest(float[] f, int at, int slots, float x, float y, float z) {
        int[] stack = new int[DeviceColliderRecords.MESH_STACK];
        int top = 0;
        stack[top++] = 0;
        float best = Float.POSITIVE_INFINITY;
        int bestSlot = -1;
        int bestRegion = 0;
        float[] q = new float[3];
        float[] cp = new float[3];
        float[] v = new float[9];
        while (top > 0) {
            int node = stack[--top];
            int b = at + TriangleBvh.FLAT_NODE * node;
            if (boxDistance2(f, b, x, y, z) > best) {
                continue;
            }
            int child = Float.floatToRawIntBits(f[b + 6]);
            if (child == 0) {
                int first = Float.floatToRawIntBits(f[b + 7]);
                for (int i = first; i < first + Float.floatToRawIntBits(f[b + 8]); i++) {
                    System.arraycopy(f, at + slots + TriangleBvh.FLAT_TRIANGLE * i, v, 0, 9);
                    int region = TriangleClosestPoint.closest(v, 0, 1, 2, x, y, z, cp);
                    float dx = cp[0] - x;
                    float dy = cp[1] - y;
                    float dz = cp[2] - z;
                    float d2 = dx * dx + dy * dy + dz * dz;
                    if (d2 <= best) {
                        best = d2;
                        bestSlot = i;
                        bestRegion = region;
                        System.arraycopy(cp, 0, q, 0, 3);
                    }
                }
            } else {
                float d0 = boxDistance2(f, at + TriangleBvh.FLAT_NODE * child, x, y, z);
                float d1 = boxDistance2(f, at + TriangleBvh.FLAT_NODE * (child + 1), x, y, z);
                stack[top++] = d0 < d1 ? child + 1 : child;
                stack[top++] = d0 < d1 ? child : child + 1;
            }
        }
        int n = at + slots + TriangleBvh.FLAT_TRIANGLE * bestSlot + 9;
        return new float[] {q[0], q[1], q[2], best, bestRegion, f[n], f[n + 1], f[n + 2]};
    }

    private static float boxDistance2(float[] f, int b, float px, float py, float pz) {
        float dx = Math.max(0f, Math.max(f[b] - px, px - f[b + 3]));
        float dy = Math.max(0f, Math.max(f[b + 1] - py, py - f[b + 4]));
        float dz = Math.max(0f, Math.max(f[b + 2] - pz, pz - f[b + 5]));
        return dx * dx + dy * dy + dz * dz;
    }
}
