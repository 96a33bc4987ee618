package dev.weft.render;

import static org.lwjgl.opengl.GL33.*;

import dev.weft.core.geom.SmoothNormals;
import dev.weft.core.collide.AnimatedMeshCollider;
import dev.weft.core.collide.Collider;
import dev.weft.core.collide.PlaneCollider;
import dev.weft.core.collide.Projectile;
import dev.weft.core.collide.RigidCollider;
import dev.weft.core.mesh.TriangleMesh;
import dev.weft.core.model.DistanceConstraints;
import dev.weft.core.model.DistanceKind;
import dev.weft.core.model.DrawnSurface;
import dev.weft.core.model.Model;
import dev.weft.core.model.ModelObject;
import dev.weft.core.util.FloatList;
import dev.weft.core.util.IntList;
import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.system.MemoryUtil;

/**
 * Draws a scene into any {@link RenderTarget}: the simulated bodies as smooth-shaded two-sided meshes
 * (rebuilt every frame from the particle positions), ropes as lines, colliders as meshes (a plane as
 * a floor with a grid, a sphere tessellated, mesh and SDF colliders by their triangles), Phong
 * lighting with two lights and a shadow map from the key light onto floor and colliders, and
 * optionally a wireframe overlay and the particles. Needs the target's OpenGL context current; not
 * thread-safe.
 */
public final class SceneRenderer implements AutoCloseable {
    private static final int SHADOW_UNIT = 0;
    /** The texture unit a body's own image is bound to (not the shadow map's: a unit takes one sampler type). */
    private static final int BODY_TEXTURE_UNIT = 1;

    private Model model;
    private final RenderStyle style;
    private final SceneBounds staticBounds;
    private final Lighting lighting;
    private final ShaderProgram lit;
    /** {@code lit} for the floors alone: grid and shadow, no branches for specular, checker or texture. */
    private final ShaderProgram floorLit;
    /** {@code lit} for bodies without their own image: checker and specular, no shadow lookup or texture branch. */
    private final ShaderProgram clothLit;
    private final ShaderProgram flat;
    private final ShaderProgram depth;
    private final ClothMesh cloth;
    /** Normals and bounds on the device, made at the first draw from device positions. */
    private DeviceSurface deviceSurface;
    private final ShadowMap shadowMap;
    private final List<StaticMesh> solids = new ArrayList<>();
    /**
     * For each of {@link #solids}: the collider that places it every frame (a rigid body by its pose, a
     * projectile by its centre), or null for a world-frame mesh.
     */
    private final List<Collider> solidBodies = new ArrayList<>();
    /** For each of {@link #solids}: radius of a ball about the body origin holding the mesh (rigid bodies). */
    private final FloatList solidReach = new FloatList();
    /** Animated bodies and the index in {@link #solids} of the mesh redrawn from their pose every frame. */
    private final List<AnimatedMeshCollider> animated = new ArrayList<>();
    private final IntList animatedSolid = new IntList();
    /** Each animated body's vertices this frame, fetched once for its mesh and the frame's bounds. */
    private final List<float[]> animatedVertices = new ArrayList<>();
    private final List<StaticMesh> floors = new ArrayList<>();
    private final List<float[][]> floorAxes = new ArrayList<>();
    /** Per body its own image's GL texture (0: none, drawn in its colour). */
    private final int[] bodyTexture;
    private final float[] bodyFront;
    private final float[] bodyBack;

    // per-frame scratch, allocated once
    private final float[] view = new float[16];
    private final float[] projection = new float[16];
    private final float[] viewProjection = new float[16];
    private final float[] lightView = new float[16];
    private final float[] lightProjection = new float[16];
    private final float[] lightViewProjection = new float[16];
    private final float[] frameBox = new float[6];
    private final float[] frameCenter = new float[3];
    private final float[] fogColor = new float[3];
    private final float[] model4 = new float[16];
    /** A rigid body's pose (origin, rotation) or a ball's centre, as {@link #poses} gives it. */
    private final float[] pose = new float[12];
    /** Where the moving bodies' poses are read: the bodies themselves unless {@link #setPoses} says otherwise. */
    private BodyPoses poses = BodyPoses.LIVE;
    private static final float[] IDENTITY = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    /** Builds the GPU resources (needs a current context). */
    public SceneRenderer(Model model, Collider[] colliders, RenderStyle style) {
        this.model = model;
        this.style = style;
        this.staticBounds = SceneBounds.of(model, colliders);
        this.lighting = style.lighting() != null ? style.lighting() : Lighting.around(staticBounds);
        lit = new ShaderProgram("lit");
        floorLit = new ShaderProgram("lit", "FLOOR");
        clothLit = new ShaderProgram("lit", "CLOTH");
        flat = new ShaderProgram("flat");
        depth = new ShaderProgram("depth");
        cloth = new ClothMesh(model);
        shadowMap = new ShadowMap(style.shadowMapSize());
        float r = staticBounds.radius();
        float[] center = staticBounds.center();
        for (Collider c : colliders) {
            if (c instanceof PlaneCollider p) {
                float[] n = p.normal();
                // the square is centred where the scene's centre projects onto the plane
                float s = n[0] * center[0] + n[1] * center[1] + n[2] * center[2] - p.offset();
                float[] onPlane = {center[0] - s * n[0], center[1] - s * n[1], center[2] - s * n[2]};
                float[] u = new float[3];
                float[] v = new float[3];
                floors.add(new StaticMesh(Tessellation.square(onPlane, n, Math.max(40f * r, 20f), u, v)));
                floorAxes.add(new float[][] {u, v});
            } else if (c instanceof RigidCollider body) {
                // drawn in the body frame and placed by the body's pose every frame (moving colliders move)
                ColliderShapes.bodyFrame(body).ifPresent(t -> addSolid(new StaticMesh(t), body, reach(t)));
            } else if (c instanceof Projectile ball) {
                // a ball about its centre, moved to where it flies every frame
                Tessellation t = ColliderShapes.capsule(ball.radius(), 0f);
                addSolid(new StaticMesh(t), ball, ball.radius());
            } else if (c instanceof AnimatedMeshCollider a) {
                // in world coordinates, its vertices replaced by the body's pose every frame
                animated.add(a);
                animatedSolid.add(solids.size());
                animatedVertices.add(new float[3 * a.vertexCount()]);
                float[] x = animatedVertices.get(animatedVertices.size() - 1);
                a.currentPositions(x);
                addSolid(new StaticMesh(tessellate(x, a.triangles())), null, 0f);
            }
            // an SDF given without its mesh, or a rigid shape not known here, is not drawn; it still acts
        }
        List<ModelObject> objects = model.objects();
        bodyTexture = new int[objects.size()];
        bodyFront = new float[3 * objects.size()];
        bodyBack = new float[3 * objects.size()];
        for (int i = 0; i < objects.size(); i++) {
            System.arraycopy(Palette.front(i), 0, bodyFront, 3 * i, 3);
            System.arraycopy(Palette.back(i), 0, bodyBack, 3 * i, 3);
        }
        for (int i = 0; i < 3; i++) {
            fogColor[i] = (float) Math.pow(Palette.BACKGROUND[i], 2.2);
        }
    }

    /**
     * Draws body {@code body} (its index in the model's objects) with {@code image} over its texture
     * coordinates instead of its colour and the checker: u across the image, v from its bottom row up (OBJ's
     * convention; a grid cloth's span the image once), repeated beyond [0, 1], on both faces (the back a
     * little darker). Needs the context.
     */
    public void setTexture(int body, BufferedImage image) {
        if (body < 0 || body >= bodyTexture.length) {
            throw new IllegalArgumentException("no body " + body + " (the model has " + bodyTexture.length + ")");
        }
        int w = image.getWidth();
        int h = image.getHeight();
        ByteBuffer texels = MemoryUtil.memAlloc(4 * w * h);
        try {
            for (int y = h - 1; y >= 0; y--) { // GL's first row is t = 0: the image's bottom
                for (int x = 0; x < w; x++) {
                    int argb = image.getRGB(x, y);
                    texels.put((byte) (argb >> 16)).put((byte) (argb >> 8)).put((byte) argb).put((byte) (argb >>> 24));
                }
            }
            texels.flip();
            if (bodyTexture[body] == 0) {
                bodyTexture[body] = glGenTextures();
            }
            glActiveTexture(GL_TEXTURE0 + BODY_TEXTURE_UNIT);
            glBindTexture(GL_TEXTURE_2D, bodyTexture[body]);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
            glGenerateMipmap(GL_TEXTURE_2D);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
            glActiveTexture(GL_TEXTURE0);
        } finally {
            MemoryUtil.memFree(texels);
        }
    }

    /** Draws from now on a ball thrown after this renderer was made (the viewer's cannonballs). Needs the context. */
    public void addProjectile(Projectile ball) {
        addSolid(new StaticMesh(ColliderShapes.capsule(ball.radius(), 0f)), ball, ball.radius());
    }

    private void addSolid(StaticMesh mesh, Collider body, float reach) {
        solids.add(mesh);
        solidBodies.add(body);
        solidReach.add(reach);
    }

    /**
     * Where the moving bodies' poses come from in the frames drawn from now on ({@link BodyPoses#LIVE}: the bodies
     * as they are when drawn). The viewer gives each frame's snapshot, taken with that frame's particle positions.
     */
    public void setPoses(BodyPoses poses) {
        this.poses = poses;
    }

    /** The body's pose as {@link #poses} gives it into x, tessellated. */
    private Tessellation animatedPose(AnimatedMeshCollider a, float[] x) {
        poses.animated(a, x);
        return tessellate(x, a.triangles());
    }

    private static float reach(Tessellation t) {
        float[] x = t.positions();
        float r2 = 0f;
        for (int i = 0; i < x.length; i += 3) {
            r2 = Math.max(r2, x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2]);
        }
        return (float) Math.sqrt(r2);
    }

    /** Sets {@code program}'s uModel to solid i's current pose (identity for world-frame meshes). */
    private void placeSolid(ShaderProgram program, int i) {
        Collider body = solidBodies.get(i);
        if (body instanceof RigidCollider rigid) {
            poses.rigid(rigid, pose);
            program.setMatrix("uModel", bodyMatrix(pose, model4));
        } else if (body instanceof Projectile ball) {
            System.arraycopy(IDENTITY, 0, model4, 0, 16);
            poses.ball(ball, pose);
            model4[12] = pose[0];
            model4[13] = pose[1];
            model4[14] = pose[2];
            program.setMatrix("uModel", model4);
        } else {
            program.setMatrix("uModel", IDENTITY);
        }
    }

    /** The column-major 4 × 4 matrix of a rigid body's current pose: world = R · local + position. */
    static float[] bodyMatrix(RigidCollider body, float[] out) {
        float[] p = new float[12];
        body.writePose(p, 0);
        return bodyMatrix(p, out);
    }

    /** The column-major 4 × 4 matrix of a pose, origin (3) then rotation (9, row-major): world = R · local + origin. */
    private static float[] bodyMatrix(float[] pose, float[] out) {
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                out[4 * col + row] = pose[3 + 3 * row + col];
            }
            out[12 + row] = pose[row];
            out[4 * row + 3] = 0f;
        }
        out[15] = 1f;
        return out;
    }

    /** Corners whose smooth normal is further than this from their face's are shaded flat (box edges). */
    private static final float CREASE_COS = (float) Math.cos(Math.toRadians(35));

    /**
     * A collider mesh for drawing: smooth normals, except at creases (a box's edges), where a corner
     * takes its face's normal; every corner gets its own vertex so both kinds can coexist.
     */
    static Tessellation tessellate(TriangleMesh mesh) {
        return tessellate(mesh.positions(), mesh.triangles());
    }

    /** Triangles t over vertices x: smooth normals, split at creases sharper than {@code CREASE_COS}. */
    static Tessellation tessellate(float[] x, int[] t) {
        SmoothNormals smooth = new SmoothNormals(x.length / 3);
        float[] sn = smooth.compute(x, t);
        float[] p = new float[3 * t.length];
        float[] n = new float[3 * t.length];
        int[] tri = new int[t.length];
        for (int f = 0; f < t.length; f += 3) {
            int a = 3 * t[f];
            int b = 3 * t[f + 1];
            int c = 3 * t[f + 2];
            float e1x = x[b] - x[a];
            float e1y = x[b + 1] - x[a + 1];
            float e1z = x[b + 2] - x[a + 2];
            float e2x = x[c] - x[a];
            float e2y = x[c + 1] - x[a + 1];
            float e2z = x[c + 2] - x[a + 2];
            float fx = e1y * e2z - e1z * e2y;
            float fy = e1z * e2x - e1x * e2z;
            float fz = e1x * e2y - e1y * e2x;
            float len = (float) Math.sqrt(fx * fx + fy * fy + fz * fz);
            boolean collapsed = len < 1e-20f; // no direction of its own: keep the smooth normals
            if (!collapsed) {
                fx /= len;
                fy /= len;
                fz /= len;
            }
            for (int k = 0; k < 3; k++) {
                int v = 3 * t[f + k];
                int o = 3 * (f + k);
                p[o] = x[v];
                p[o + 1] = x[v + 1];
                p[o + 2] = x[v + 2];
                boolean crease = !collapsed && fx * sn[v] + fy * sn[v + 1] + fz * sn[v + 2] < CREASE_COS;
                n[o] = crease ? fx : sn[v];
                n[o + 1] = crease ? fy : sn[v + 1];
                n[o + 2] = crease ? fz : sn[v + 2];
                tri[f + k] = f + k;
            }
        }
        return new Tessellation(p, n, tri);
    }

    /** The model drawn. */
    Model model() {
        return model;
    }

    public Lighting lighting() {
        return lighting;
    }

    /** Draws one frame of the bodies at {@code positions} (xyz per particle) seen by {@code camera}. */
    /** The stretch constraints of the rope bodies, body by body: pairs[2 k..], body i's are [start[i], start[i+1]). */
    record RopeSegments(Model model, int[] pairs, int[] start) {
        /** The segments of {@code model}'s ropes: its stretch constraints (a torn rope's break has none). */
        static RopeSegments of(Model model) {
            List<ModelObject> objects = model.objects();
            DistanceConstraints d = model.distances();
            int[] p = d.particles();
            byte[] kind = d.kind();
            int[] start = new int[objects.size() + 1];
            IntList pairs = new IntList();
            for (int i = 0; i < objects.size(); i++) {
                start[i] = pairs.size() / 2;
                if (objects.get(i).triangleCount() == 0) {
                    for (int c = 0; c < d.count(); c++) {
                        if (kind[c] == DistanceKind.STRETCH.code() && model.objectOf(p[2 * c]) == i) {
                            pairs.add(p[2 * c], p[2 * c + 1]);
                        }
                    }
                }
            }
            start[objects.size()] = pairs.size() / 2;
            return new RopeSegments(model, pairs.toArray(), start);
        }
    }

    private RopeSegments ropes;

    private RopeSegments ropeSegments() {
        if (ropes == null || ropes.model() != model) {
            ropes = RopeSegments.of(model);
        }
        return ropes;
    }

    /**
     * Draws from now on the bodies of {@code edited}, an edit of the model this renderer was made for
     * (tearing, cutting: same bodies, its triangles re-attached and particles added).
     */
    public void setModel(Model edited) {
        model = edited;
    }

    public void draw(RenderTarget target, float[] positions, Camera camera) {
        // the drawn surface: the particles, with a soft body's skin in place of its own triangles
        DrawnSurface drawn = model.drawnSurface();
        int[] triangles = drawn.triangles();
        float[] vertices = drawn.positions(positions);
        cloth.update(vertices, drawn.uvs(), triangles);
        updateAnimated();
        startFrameBounds();
        growFrameBounds(vertices);
        finishFrameBounds();
        drawFrame(target, camera, triangles);
    }

    /**
     * Whether {@link #draw(RenderTarget, DevicePositions, Camera)} can draw the model in the current
     * context: no skinned body (a skin's vertices are computed on the host) and OpenGL 4.3 compute with the
     * storage binding points {@link DeviceSurface} uses.
     */
    public boolean canDrawFromDevice() {
        return !model.drawnSurface().skinned() && DeviceSurface.supported();
    }

    /**
     * Draws one frame of the bodies at the positions in {@code source}'s buffer, which must belong to the
     * current context (this renderer was made in it): nothing of them crosses to the host but the box
     * around them; normals computed there as {@code SmoothNormals} does. The same picture as {@link
     * #draw(RenderTarget, float[], Camera)} given those positions. Refused where {@link #canDrawFromDevice}
     * is false.
     */
    public void draw(RenderTarget target, DevicePositions source, Camera camera) {
        if (!canDrawFromDevice()) {
            throw new IllegalStateException(model.drawnSurface().skinned()
                    ? "a skinned body's surface is computed on the host: draw it from host positions"
                    : "this OpenGL cannot compute the normals on the device (needs 4.3 and 30 storage bindings)");
        }
        if (source.heldParticles() != model.particleCount()) {
            throw new IllegalArgumentException("the device buffer holds " + source.heldParticles()
                    + " particles, the model " + model.particleCount());
        }
        if (deviceSurface == null) {
            deviceSurface = new DeviceSurface();
        }
        DrawnSurface drawn = model.drawnSurface();
        int[] triangles = drawn.triangles();
        int n = model.particleCount();
        cloth.updateFromDevice(source.positionsBuffer(), n, drawn.uvs(), triangles, deviceSurface);
        updateAnimated();
        startFrameBounds();
        if (n > 0) {
            deviceSurface.bounds(source.positionsBuffer(), n, deviceMin, deviceMax);
            growFrameBounds(deviceMin, deviceMax);
        }
        finishFrameBounds();
        drawFrame(target, camera, triangles);
    }

    /** The smooth normals last computed by a device draw (tests: they must be the host's). */
    float[] deviceNormals() {
        float[] out = new float[3 * model.particleCount()];
        deviceSurface.readNormals(out);
        return out;
    }

    private void updateAnimated() {
        for (int i = 0; i < animated.size(); i++) {
            solids.get(animatedSolid.get(i)).update(animatedPose(animated.get(i), animatedVertices.get(i)));
        }
    }

    /** Camera, light and the passes, the cloth's mesh and this frame's bounds ready. */
    private void drawFrame(RenderTarget target, Camera camera, int[] triangles) {
        // camera
        float aspect = (float) target.width() / target.height();
        float distance = camera.distanceToTarget();
        float radius = halfDiagonal();
        float near = Math.max(0.005f, 0.01f * distance);
        float far = distance + 60f * radius + 50f;
        camera.view(view);
        camera.projection(aspect, near, far, projection);
        Mat4.multiply(projection, view, viewProjection);

        // key light: a perspective frustum from the light that just holds the bounding sphere of this frame
        float[] key = lighting.keyPosition();
        float dx = frameCenter[0] - key[0];
        float dy = frameCenter[1] - key[1];
        float dz = frameCenter[2] - key[2];
        float lightDistance = (float) Math.sqrt(dx * dx + dy * dy + dz * dz);
        float reach = 1.15f * radius;
        float halfAngle = (float) Math.asin(Math.min(0.99, reach / lightDistance));
        Mat4.lookAt(key, frameCenter, Math.abs(dy) > 0.99f * lightDistance ? new float[] {0, 0, 1}
                : new float[] {0, 1, 0}, lightView);
        Mat4.perspective(2f * halfAngle, 1f, Math.max(0.01f, lightDistance - reach), lightDistance + reach,
                lightProjection);
        Mat4.multiply(lightProjection, lightView, lightViewProjection);

        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDisable(GL_CULL_FACE); // cloth is two-sided; closed colliders are cheap enough without culling
        shadowPass(triangles);

        target.bind();
        glClearColor(Palette.BACKGROUND[0], Palette.BACKGROUND[1], Palette.BACKGROUND[2], 1f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        target.cleared();
        litPass(target, camera, distance, radius);
        if (style.wireframe()) {
            wireframePass(triangles);
        }
        particlePass(target);
        target.endFrame();
    }

    private void shadowPass(int[] triangles) {
        shadowMap.beginPass();
        depth.use();
        depth.setMatrix("uLightViewProjection", lightViewProjection);
        // slope-scaled offset against shadow acne (seed 001 §5.4.3's bias)
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(2f, 4f);
        depth.setMatrix("uModel", IDENTITY);
        cloth.drawTriangles(0, triangles.length / 3);
        for (int i = 0; i < solids.size(); i++) {
            placeSolid(depth, i);
            solids.get(i).draw();
        }
        glDisable(GL_POLYGON_OFFSET_FILL);
    }

    /** The cloth's material: no shadow received, the checker (unless off), a little specular. */
    private void clothUniforms(ShaderProgram p) {
        p.set("uReceivesShadow", 0);
        p.set("uChecker", style.checker() ? (float) RenderStyle.CHECKER_SQUARES : 0f);
        p.set("uSpecular", 0.12f);
        p.set("uShininess", 16f);
        p.set("uTextured", 0);
    }

    /** The uniforms {@code lit} and its variants share: camera, lights, fog, shadow map. */
    private void sceneUniforms(ShaderProgram p, Camera camera, float distance, float radius) {
        p.use();
        p.setMatrix("uModel", IDENTITY);
        p.setMatrix("uViewProjection", viewProjection);
        p.setMatrix("uLightViewProjection", lightViewProjection);
        p.set("uEye", camera.eye());
        glUniform3fv(p.uniform("uLightPosition[0]"), lighting.keyPosition());
        glUniform3fv(p.uniform("uLightPosition[1]"), lighting.fillPosition());
        glUniform3fv(p.uniform("uLightColor[0]"), lighting.keyColor());
        glUniform3fv(p.uniform("uLightColor[1]"), lighting.fillColor());
        p.set("uAmbient", lighting.ambient());
        p.set("uFogColor", fogColor);
        p.set("uFogDistance", distance + 6f * radius);
        shadowMap.bindTexture(SHADOW_UNIT);
        p.set("uShadowMap", SHADOW_UNIT);
        p.set("uTexture", BODY_TEXTURE_UNIT);
        p.set("uTextured", 0);
    }

    private void litPass(RenderTarget target, Camera camera, float distance, float radius) {
        sceneUniforms(lit, camera, distance, radius);
        lit.set("uChecker", 0f);
        lit.set("uTextured", 0);
        lit.set("uGridSpacing", 0f);
        lit.set("uReceivesShadow", 1);
        lit.set("uSpecular", 0.35f);
        lit.set("uShininess", 32f);
        lit.set("uFrontColor", Palette.COLLIDER);
        lit.set("uBackColor", Palette.COLLIDER);
        for (int i = 0; i < solids.size(); i++) {
            placeSolid(lit, i);
            solids.get(i).draw();
        }
        lit.setMatrix("uModel", IDENTITY);

        // cloth: no shadow on itself (seed 001 §5.4.3 leaves self-shadowing out: acne on thin sheets); a body
        // without its own image is drawn by the variant without the shadow lookup and the texture branch
        boolean plainBodies = false;
        for (int t : bodyTexture) {
            plainBodies |= t == 0;
        }
        if (plainBodies) {
            sceneUniforms(clothLit, camera, distance, radius);
            clothUniforms(clothLit);
        }
        lit.use();
        clothUniforms(lit);
        if (style.wireframe()) {
            // push the surface back a little so the wire overlay is not hidden in it
            glEnable(GL_POLYGON_OFFSET_FILL);
            glPolygonOffset(1f, 1f);
        }
        List<ModelObject> objects = model.objects();
        ShaderProgram current = lit;
        for (int i = 0; i < objects.size(); i++) {
            ShaderProgram p = bodyTexture[i] != 0 ? lit : clothLit;
            if (p != current) {
                p.use();
                current = p;
            }
            glUniform3f(p.uniform("uFrontColor"), bodyFront[3 * i], bodyFront[3 * i + 1], bodyFront[3 * i + 2]);
            glUniform3f(p.uniform("uBackColor"), bodyBack[3 * i], bodyBack[3 * i + 1], bodyBack[3 * i + 2]);
            if (bodyTexture[i] != 0) {
                glActiveTexture(GL_TEXTURE0 + BODY_TEXTURE_UNIT);
                glBindTexture(GL_TEXTURE_2D, bodyTexture[i]);
                glActiveTexture(GL_TEXTURE0);
                lit.set("uTextured", 1);
            }
            cloth.drawTriangles(model.drawnSurface().firstTriangle(i), model.drawnSurface().triangleCount(i));
        }
        lit.use();
        lit.set("uTextured", 0);
        glDisable(GL_POLYGON_OFFSET_FILL);
        lit.set("uChecker", 0f);
        // floors last: the cloth and colliders in front of them are in the depth buffer by now, so llvmpipe's
        // early depth test skips shading the floor under them
        if (!floors.isEmpty()) {
            // matte (no specular term), grid every 10 cm (every metre for scenes larger than a few metres)
            sceneUniforms(floorLit, camera, distance, radius);
            floorLit.set("uReceivesShadow", 1);
            floorLit.set("uSpecular", 0f);
            floorLit.set("uShininess", 8f);
            floorLit.set("uGridSpacing", radius > 5f ? 1f : 0.1f);
            floorLit.set("uFrontColor", Palette.FLOOR);
            floorLit.set("uBackColor", Palette.FLOOR);
            for (int i = 0; i < floors.size(); i++) {
                floorLit.set("uGridU", floorAxes.get(i)[0]);
                floorLit.set("uGridV", floorAxes.get(i)[1]);
                floors.get(i).draw();
            }
        }

        // ropes (bodies without triangles): a line along each of their segments (stretch constraints,
        // so a torn rope shows its break) and a dot on each particle, in the body's colour (core-profile
        // lines are one pixel wide; the dots give the rope some thickness)
        RopeSegments ropes = ropeSegments();
        cloth.updateLines(ropes.pairs);
        flat.use();
        flat.setMatrix("uViewProjection", viewProjection);
        flat.set("uRoundPoints", 1);
        flat.set("uPointSize", Math.max(3f, target.height() / 160f));
        glEnable(GL_PROGRAM_POINT_SIZE);
        for (int i = 0; i < objects.size(); i++) {
            ModelObject o = objects.get(i);
            if (o.triangleCount() == 0) {
                glUniform3f(flat.uniform("uColor"), gamma(bodyFront[3 * i]), gamma(bodyFront[3 * i + 1]),
                        gamma(bodyFront[3 * i + 2]));
                int first = ropes.start[i];
                int count = ropes.start[i + 1] - first;
                cloth.drawLines(GL_LINES, first, count);
                cloth.drawLines(GL_POINTS, first, count);
            }
        }
        glDisable(GL_PROGRAM_POINT_SIZE);
    }

    private void wireframePass(int[] triangles) {
        flat.use();
        flat.setMatrix("uViewProjection", viewProjection);
        flat.set("uColor", Palette.WIREFRAME);
        flat.set("uRoundPoints", 0);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        cloth.drawTriangles(0, triangles.length / 3);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }

    private void particlePass(RenderTarget target) {
        if (!style.particles()) {
            return;
        }
        flat.use();
        flat.setMatrix("uViewProjection", viewProjection);
        flat.set("uColor", Palette.PARTICLE);
        flat.set("uRoundPoints", 1);
        flat.set("uPointSize", Math.max(2f, target.height() / 240f));
        glEnable(GL_PROGRAM_POINT_SIZE);
        cloth.drawParticles(GL_POINTS, 0, model.particleCount());
        glDisable(GL_PROGRAM_POINT_SIZE);
    }

    // this frame's bounds: the static ones grown by where the particles are now (startFrameBounds,
    // growFrameBounds, finishFrameBounds)
    private float[] boundsMin;
    private float[] boundsMax;
    /** The particles' box a device draw reads back. */
    private final float[] deviceMin = new float[3];
    private final float[] deviceMax = new float[3];

    private void startFrameBounds() {
        boundsMin = staticBounds.min();
        boundsMax = staticBounds.max();
    }

    private void growFrameBounds(float[] positions) {
        float[] min = boundsMin;
        float[] max = boundsMax;
        for (int i = 0; i + 2 < positions.length; i += 3) {
            for (int d = 0; d < 3; d++) {
                float p = positions[i + d];
                if (p < min[d]) {
                    min[d] = p;
                }
                if (p > max[d]) {
                    max[d] = p;
                }
            }
        }
    }

    /** As {@link #growFrameBounds(float[])} for particles whose box is [low, high] (the same comparisons). */
    private void growFrameBounds(float[] low, float[] high) {
        for (int d = 0; d < 3; d++) {
            if (low[d] < boundsMin[d]) {
                boundsMin[d] = low[d];
            }
            if (high[d] > boundsMax[d]) {
                boundsMax[d] = high[d];
            }
        }
    }

    private void finishFrameBounds() {
        float[] min = boundsMin;
        float[] max = boundsMax;
        for (int i = 0; i < solids.size(); i++) {
            Collider body = solidBodies.get(i);
            if (body != null && body.moving()) {
                if (body instanceof Projectile ball) {
                    poses.ball(ball, pose);
                } else {
                    poses.rigid((RigidCollider) body, pose);
                }
                float r = solidReach.get(i);
                for (int d = 0; d < 3; d++) {
                    min[d] = Math.min(min[d], pose[d] - r);
                    max[d] = Math.max(max[d], pose[d] + r);
                }
            }
        }
        for (float[] x : animatedVertices) { // this frame's, fetched by draw before the bounds
            for (int i = 0; i < x.length; i += 3) {
                for (int d = 0; d < 3; d++) {
                    min[d] = Math.min(min[d], x[i + d]);
                    max[d] = Math.max(max[d], x[i + d]);
                }
            }
        }
        for (int d = 0; d < 3; d++) {
            frameBox[d] = min[d];
            frameBox[3 + d] = max[d];
            frameCenter[d] = 0.5f * (min[d] + max[d]);
        }
    }

    private float halfDiagonal() {
        float dx = frameBox[3] - frameBox[0];
        float dy = frameBox[4] - frameBox[1];
        float dz = frameBox[5] - frameBox[2];
        return Math.max(1e-3f, 0.5f * (float) Math.sqrt(dx * dx + dy * dy + dz * dz));
    }

    private static float gamma(float linear) {
        return (float) Math.pow(linear, 1 / 2.2);
    }

    @Override
    public void close() {
        lit.close();
        floorLit.close();
        clothLit.close();
        flat.close();
        depth.close();
        cloth.close();
        if (deviceSurface != null) {
            deviceSurface.close();
        }
        shadowMap.close();
        for (int t : bodyTexture) {
            if (t != 0) {
                glDeleteTextures(t);
            }
        }
        for (StaticMesh m : solids) {
            m.close();
        }
        for (StaticMesh m : floors) {
            m.close();
        }
    }
}
