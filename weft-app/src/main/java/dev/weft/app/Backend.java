package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.contact.ParticleContactSettings;
import dev.weft.core.model.Model;
import dev.weft.core.parallel.WorkerPool;
import dev.weft.core.solver.DeviceFeature;
import dev.weft.core.solver.Solver;
import dev.weft.core.solver.SolverSettings;
import dev.weft.core.solver.Solvers;
import dev.weft.core.solver.UnsupportedOnDeviceException;
import dev.weft.core.solver.xpbd.XpbdSettings;
import dev.weft.core.step.Environment;
import dev.weft.opencl.OpenClDevice;
import dev.weft.opencl.OpenClDevices;
import dev.weft.opencl.OpenClImplicitSolver;
import dev.weft.opencl.OpenClMassSpringSolver;
import dev.weft.opencl.OpenClPdSolver;
import dev.weft.opencl.OpenClRelaxationSolver;
import dev.weft.opencl.OpenClSolver;
import dev.weft.opencl.OpenClXpbdSolver;
import dev.weft.render.compute.GlslMassSpringSolver;
import dev.weft.render.compute.GlslSolver;
import dev.weft.render.compute.GlslXpbdSolver;
import java.util.List;
import java.util.Locale;

/**
 * Where a run's solver steps, as {@code --backend} names it: {@code cpu} (the Java solvers, on
 * {@code --threads}), {@code opencl} (the first GPU, else device 0), {@code opencl:N} (device N as {@code weft devices}
 * numbers them) or {@code glsl} (OpenGL 4.3 compute shaders through EGL: the GPU's driver, or Mesa's
 * llvmpipe on the CPU). Only some solvers have a device implementation, and those refuse some scene
 * features; both are refused here before the run starts, in the command line's words (which flag or
 * scene key turns the feature off), not the library's.
 *
 * @param text   the flag's value as given, for messages
 * @param device the OpenCL device index or {@link OpenClDevices#PREFERRED}, or -1 for the cpu and glsl
 * @param glsl   whether the solver runs in GLSL compute shaders
 */
record Backend(String text, int device, boolean glsl) {
    static final String FLAG = "--backend";
    static final Backend CPU = new Backend("cpu", -1, false);
    /** The solvers with an OpenCL implementation, in the order messages list them. */
    static final List<String> OPENCL_SOLVERS = List.of("implicit", "mass-spring", "pbd", "pd", "relaxation", "xpbd");
    /** The OpenCL solvers that run particle contacts on the device (every one). */
    static final List<String> OPENCL_CONTACT_SOLVERS = List.of("implicit", "mass-spring", "pbd", "pd", "relaxation",
            "xpbd");
    /** The solvers with a GLSL implementation, in the order messages list them. */
    static final List<String> GLSL_SOLVERS = List.of("mass-spring", "xpbd");

    /** {@code cpu}, {@code opencl}, {@code opencl:N} or {@code glsl}. */
    static Backend parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("cpu")) {
            return CPU;
        }
        if (t.equals("glsl")) {
            return new Backend(text, -1, true);
        }
        if (t.equals("opencl")) {
            return new Backend(text, OpenClDevices.PREFERRED, false);
        }
        if (t.startsWith("opencl:")) {
            try {
                int n = Integer.parseInt(t.substring("opencl:".length()));
                if (n >= 0) {
                    return new Backend(text, n, false);
                }
            } catch (NumberFormatException e) {
                // the message below
            }
        }
        throw new InvalidInputException(FLAG, "must be cpu, opencl, opencl:N (N a device number of 'weft "
                + "devices') or glsl, got '" + text + "'");
    }

    /** The solvers this backend runs, in the order messages list them (every solver on the cpu). */
    List<String> solvers() {
        return glsl ? GLSL_SOLVERS : openCl() ? OPENCL_SOLVERS : Solvers.names();
    }

    boolean openCl() {
        return device != CPU.device;
    }

    /** OpenCL or GLSL: the solver runs on a device of its own, not on the run's threads. */
    boolean onDevice() {
        return openCl() || glsl;
    }

    /**
     * Refuses, before anything runs, a solver without a device implementation and a scene the device
     * solver would refuse ({@code contacts}: the particle contacts a flag or the scene asks for, null for none).
     */
    void requireSupported(String solver, SolverSettings settings, Model model, Environment env,
                          ParticleContactSettings contacts, String scene) {
        if (!onDevice()) {
            return;
        }
        List<String> solvers = glsl ? GLSL_SOLVERS : OPENCL_SOLVERS;
        if (!solvers.contains(solver)) {
            throw new InvalidInputException(FLAG, text + " runs --solver " + String.join(", ", solvers)
                    + " so far, not " + solver + "; use --backend cpu");
        }
        try {
            if (contacts != null && (glsl || !OPENCL_CONTACT_SOLVERS.contains(solver))) {
                throw new UnsupportedOnDeviceException(DeviceFeature.PARTICLE_CONTACTS, "asked for");
            }
            if (glsl && solver.equals("xpbd")) {
                GlslXpbdSolver.requireSupported(settings.xpbd(), model, env);
            } else if (glsl) {
                GlslMassSpringSolver.requireSupported(settings.massSpring(), model, env);
            } else if (solver.equals("xpbd") || solver.equals("pbd")) {
                OpenClXpbdSolver.requireSupported(xpbdSettings(solver, settings), model, env);
            } else if (solver.equals("pd")) {
                OpenClPdSolver.requireSupported(settings.pd(), model, env);
            } else if (solver.equals("relaxation")) {
                OpenClRelaxationSolver.requireSupported(settings.relaxation(), model, env);
            } else if (solver.equals("implicit")) {
                OpenClImplicitSolver.requireSupported(settings.implicit(), model, env);
            } else {
                OpenClMassSpringSolver.requireSupported(settings.massSpring(), model, env);
            }
        } catch (UnsupportedOnDeviceException e) {
            throw refusal(e, solver, settings, model, scene);
        }
        if (openCl()) {
            // a device number beyond the list is bad input too, before anything is written
            OpenClDevice picked = pickDevice();
            try {
                OpenClSolver.requireCollidersRunOn(picked, env);
                if (solver.equals("pd")) {
                    OpenClPdSolver.requireRunsOn(picked, model);
                }
            } catch (UnsupportedOnDeviceException e) {
                throw refusal(e, solver, settings, model, scene);
            }
        }
    }

    /**
     * The solver {@code solver} on this backend (on the cpu, {@code pool}'s threads; else its own device
     * queue or OpenGL context: no OpenGL 4.3 is {@code RenderUnavailableException}, exit 5).
     */
    Solver create(String solver, SolverSettings settings, WorkerPool pool) {
        if (glsl) {
            switch (solver) {
                case "mass-spring":
                    return new GlslMassSpringSolver(settings.massSpring());
                case "xpbd":
                    return new GlslXpbdSolver(settings.xpbd());
                default:
                    throw new AssertionError(solver); // requireSupported refused it
            }
        }
        if (!openCl()) {
            return Solvers.create(solver, settings, pool);
        }
        OpenClDevice d = pickDevice();
        switch (solver) {
            case "mass-spring":
                return new OpenClMassSpringSolver(settings.massSpring(), d);
            case "pd":
                return new OpenClPdSolver(settings.pd(), d);
            case "relaxation":
                return new OpenClRelaxationSolver(settings.relaxation(), d);
            case "implicit":
                return new OpenClImplicitSolver(settings.implicit(), d);
            case "xpbd":
            case "pbd":
                return new OpenClXpbdSolver(xpbdSettings(solver, settings), d);
            default:
                throw new AssertionError(solver); // requireSupported refused it
        }
    }

    /** The XPBD settings {@code solver} runs with: xpbd's own, or pbd's made from them as {@link Solvers#create}. */
    private static XpbdSettings xpbdSettings(String solver, SolverSettings settings) {
        return solver.equals("pbd") ? Solvers.pbd(settings.xpbd()) : settings.xpbd();
    }

    /** The device {@code created} (this backend's solver) runs on, in one line, for the run's header; null on the cpu. */
    String describeDevice(Solver created) {
        if (glsl) {
            return ((GlslSolver<?>) created).describeDevice();
        }
        return openCl() ? pickDevice().describe() : null;
    }

    /** The device; no OpenCL runtime is {@code OpenClUnavailableException} (exit 5), no such device bad input. */
    OpenClDevice pickDevice() {
        try {
            return OpenClDevices.pick(device);
        } catch (InvalidInputException e) { // name this flag, not the library's parameter
            throw new InvalidInputException(FLAG, e.getMessage().substring(e.source().length() + 2));
        }
    }

    /** What the device refused, said as what this command line can do about it. */
    private InvalidInputException refusal(UnsupportedOnDeviceException e, String solver, SolverSettings settings,
                                          Model model, String scene) {
        String head = text + " does not run ";
        String tail;
        switch (e.feature()) {
            case AIR:
                tail = "wind and air drag yet; use --backend cpu, or run without --wind (and without the scene's "
                        + "\"air\")";
                break;
            case PARTICLE_CONTACTS:
                tail = "particle contacts " + (glsl ? "" : "with --solver " + solver + " ") + "yet"
                        + (glsl ? "" : " (the OpenCL " + String.join(", ", OPENCL_CONTACT_SOLVERS) + " solvers do)")
                        + "; use --backend cpu, or run without --self-collision (and without the scene's "
                        + "\"selfCollision\")";
                break;
            case COLLIDER:
                tail = "scene " + scene + "'s collider " + e.source() + " yet: it " + e.getMessage()
                        .substring(e.source().length() + 2).replace("; use the cpu backend", "") + "; use --backend cpu";
                break;
            case ITERATION_MODE:
                tail = "--solver " + solver + " in mode " + settings.xpbd().mode().label() + " yet, only colored"
                        + (glsl ? "; use --mode colored" : " and jacobi; use --mode colored, --mode jacobi")
                        + " or --backend cpu";
                break;
            case STRETCH_LIMITS:
                tail = "--stretch-limits yet; use --backend cpu, or run without --stretch-limits (and without the "
                        + "scene's \"stretchLimits\")";
                break;
            case STRETCH_SMOOTHING:
                tail = "--stretch-smoothing yet; use --backend cpu, or run without --stretch-smoothing (and without "
                        + "the scene's \"stretchSmoothing\")";
                break;
            case INNER_SOLVER:
                tail = "--solver pd with --inner-solver " + settings.pd().inner().label() + " yet ("
                        + (settings.pd().inner().isDirect() ? "its sparse factor is solved on the cpu only"
                                : "sequential Gauss-Seidel is one thread by definition")
                        + "), only rbgs, jacobi and jacobi-seed; use --inner-solver rbgs or --backend cpu";
                break;
            case TETRAHEDRA:
                // only OpenCL's PD refuses them, and only on a device without double precision
                tail = "tetrahedral bodies with --solver " + solver + " on a device without double precision (scene "
                        + scene + " has " + model.tets().count() + " tetrahedra, whose projection pd computes in "
                        + "double; `weft devices` says which devices have fp64); use --backend cpu or a device "
                        + "with fp64";
                break;
            default:
                tail = e.getMessage() + "; use --backend cpu";
        }
        return new InvalidInputException(FLAG, head + tail);
    }
}
