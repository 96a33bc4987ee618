package dev.weft.app;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The options a command line gave explicitly (not their defaults), each by its declared name, with
 * the name it was typed as: {@code --no-contacts} is the option {@code --contacts}, and an error about
 * it should say what the user wrote.
 */
final class GivenFlags {
    private static final GivenFlags NONE = new GivenFlags(Map.of());

    /** Declared (longest) name of each given option to the name as typed. */
    private final Map<String, String> typed;

    private GivenFlags(Map<String, String> typed) {
        this.typed = typed;
    }

    /** The options given on the command line of {@code spec}'s command; none where it ran without one. */
    static GivenFlags of(CommandLine.Model.CommandSpec spec) {
        if (spec == null || spec.commandLine().getParseResult() == null) {
            return NONE;
        }
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        List<String> args = parsed.originalArgs();
        Map<String, String> typed = new HashMap<>();
        for (CommandLine.Model.OptionSpec option : parsed.matchedOptions()) {
            String as = option.longestName();
            for (String arg : args) {
                String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                if (List.of(option.names()).contains(name) || option.negatable() && name.equals(negated(option))) {
                    as = name;
                }
            }
            typed.put(option.longestName(), as);
        }
        return new GivenFlags(typed);
    }

    /** Whether the option with this (longest) name was given. */
    boolean has(String flag) {
        return typed.containsKey(flag);
    }

    /** The option as the user typed it ({@code --no-contacts} for {@code --contacts}), or {@code flag} itself. */
    String typed(String flag) {
        return typed.getOrDefault(flag, flag);
    }

    /** These flags but {@code flag}: for a check that does not concern it. */
    GivenFlags without(String flag) {
        Map<String, String> rest = new HashMap<>(typed);
        rest.remove(flag);
        return new GivenFlags(rest);
    }

    /** Picocli's negated form of a negatable long option: --x becomes --no-x, --no-x becomes --x. */
    private static String negated(CommandLine.Model.OptionSpec option) {
        String name = option.longestName();
        return name.startsWith("--no-") ? "--" + name.substring(5) : "--no-" + name.substring(2);
    }
}
