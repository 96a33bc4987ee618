package dev.weft.app;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a folder of numbered PNG frames into an MP4 (H.264 where ffmpeg has it, else MPEG-4 part 2)
 * and a small GIF preview, through the {@code ffmpeg} program. Outputs are written under a
 * temporary name and renamed when complete.
 */
final class VideoEncoder {
    /** How to get ffmpeg, for the message when it is missing. */
    static final String INSTALL_HINT = "install it (Debian/Ubuntu: sudo apt-get install ffmpeg; Fedora: sudo dnf "
            + "install ffmpeg; macOS: brew install ffmpeg)";

    private final Path ffmpeg;
    private final Path log;

    VideoEncoder(Path ffmpeg, Path log) {
        this.ffmpeg = ffmpeg;
        this.log = log;
    }

    /** ffmpeg on the PATH, if there is one. */
    static Optional<Path> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "ffmpeg");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The command that encodes the frames by hand, for messages. */
    static String manualCommand(Path frames, String pattern, float fps, Path mp4) {
        return String.format(Locale.ROOT, "ffmpeg -framerate %s -start_number 0 -i %s -pix_fmt yuv420p %s",
                fps(fps), frames.resolve(pattern), mp4);
    }

    /** Encodes {@code frames/pattern} (numbered from 0) at {@code fps} into {@code mp4}. */
    void mp4(Path frames, String pattern, float fps, Path mp4) {
        List<String> input = input(frames, pattern, fps);
        // yuv420p (what players expect) needs even sides
        List<String> common = List.of("-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p",
                "-movflags", "+faststart", "-f", "mp4");
        List<String> h264 = concat(input, List.of("-c:v", "libx264", "-crf", "20", "-preset", "medium"), common);
        List<String> mpeg4 = concat(input, List.of("-c:v", "mpeg4", "-q:v", "3"), common);
        if (!run(h264, mp4)) {
            // an ffmpeg built without libx264
            if (!run(mpeg4, mp4)) {
                throw new UncheckedIOException(new IOException("ffmpeg could not encode " + mp4 + "; see " + log));
            }
        }
    }

    /** A GIF preview, at most 480 pixels wide and 15 frames per second. */
    void gif(Path frames, String pattern, float fps, Path gif) {
        String filter = String.format(Locale.ROOT, "fps=%s,scale='min(480,iw)':-2:flags=lanczos,"
                + "split[a][b];[a]palettegen[p];[b][p]paletteuse", fps(Math.min(15f, fps)));
        if (!run(concat(input(frames, pattern, fps), List.of("-vf", filter, "-f", "gif"), List.of()), gif)) {
            throw new UncheckedIOException(new IOException("ffmpeg could not write " + gif + "; see " + log));
        }
    }

    private List<String> input(Path frames, String pattern, float fps) {
        return List.of(ffmpeg.toString(), "-y", "-hide_banner", "-loglevel", "error", "-framerate", fps(fps),
                "-start_number", "0", "-i", frames.resolve(pattern).toString());
    }

    private static String fps(float fps) {
        return fps == Math.rint(fps) ? Integer.toString((int) fps) : Float.toString(fps);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> p : parts) {
            all.addAll(p);
        }
        return all;
    }

    /** Runs ffmpeg writing {@code target} under a temporary name; true when it succeeded. */
    private boolean run(List<String> args, Path target) {
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        List<String> command = new ArrayList<>(args);
        command.add(partial.toString());
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            p.getOutputStream().close();
            int code = p.waitFor();
            if (code != 0) {
                Files.deleteIfExists(partial);
                return false;
            }
            if (Files.size(log) == 0) {
                Files.delete(log); // ffmpeg had nothing to say
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + ffmpeg, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while ffmpeg was encoding " + target));
        }
    }
}
