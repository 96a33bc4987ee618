package dev.weft.app;

import dev.weft.core.InvalidInputException;
import dev.weft.core.sim.SimulationDivergedException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code weft} command. With no subcommand it runs the default scene. */
@Command(name = "weft", mixinStandardHelpOptions = true, version = "weft 0.1.0",
        description = "Weft: cloth and soft-body simulation for the JVM.",
        subcommands = {RunCommand.class, BenchCommand.class, ScenesCommand.class, RenderCommand.class,
                ConvergeCommand.class, ValidateCommand.class, DevicesCommand.class, ViewCommand.class})
public final class WeftMain implements Runnable {
    /** Exit code for bad input (a flag, a file, a parameter). */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for a simulation that diverged. */
    public static final int EXIT_DIVERGED = 3;
    /** Exit code for a file that could not be read or written. */
    public static final int EXIT_IO_ERROR = 4;

    @Override
    public void run() {
        // No subcommand: the default job.
        new RunCommand().call();
    }

    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        // on the thread that used the EGL contexts, before the JVM ends: NVIDIA's driver crashes at exit otherwise
        dev.weft.render.EglHeadlessContext.shutdown();
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (used by tests, too). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new WeftMain());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler(new ParseErrorHandler());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof InvalidInputException) {
                err.println("weft: error: " + ex.getMessage());
                return EXIT_BAD_INPUT;
            }
            if (ex instanceof dev.weft.render.view.DisplayUnavailableException) {
                err.println("weft: error: no window: " + ex.getMessage());
                return RenderCommand.EXIT_MISSING_DEPENDENCY;
            }
            if (ex instanceof dev.weft.render.RenderUnavailableException) {
                err.println("weft: error: cannot render: " + ex.getMessage());
                return RenderCommand.EXIT_MISSING_DEPENDENCY;
            }
            if (ex instanceof dev.weft.opencl.OpenClUnavailableException) {
                err.println("weft: error: no OpenCL: " + ex.getMessage());
                return RenderCommand.EXIT_MISSING_DEPENDENCY;
            }
            if (ex instanceof dev.weft.bench.PeerUnavailableException) {
                err.println("weft: error: cannot run the peers benchmark: " + ex.getMessage());
                return RenderCommand.EXIT_MISSING_DEPENDENCY;
            }
            if (ex instanceof SimulationDivergedException) {
                err.println("weft: " + ex.getMessage());
                return EXIT_DIVERGED;
            }
            if (ex instanceof java.io.UncheckedIOException || ex instanceof java.io.IOException) {
                Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
                err.println("weft: error: " + ex.getMessage()
                        + (cause != ex ? " (" + cause.getMessage() + ")" : ""));
                return EXIT_IO_ERROR;
            }
            throw ex;
        });
        return cli.execute(args);
    }
}
