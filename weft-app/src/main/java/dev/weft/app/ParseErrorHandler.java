package dev.weft.app;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;

/**
 * What {@code weft} says when picocli cannot parse a command line (an unknown flag, a value that is
 * not a number, a flag without its value): one line {@code weft: error: <flag>: <what is wrong and what
 * is allowed>} and one line naming the help to read, exit status 2. Picocli's default prints its
 * message and then the whole usage, which buries the one line that matters; and its wording ("is not
 * an int") does not say what a value may be.
 */
final class ParseErrorHandler implements CommandLine.IParameterExceptionHandler {
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("weft: error: " + describe(ex));
        err.println("try '" + cmd.getCommandSpec().qualifiedName() + " --help'");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The problem, naming the flag (or argument) and what is allowed. */
    static String describe(ParameterException ex) {
        CommandSpec spec = ex.getCommandLine().getCommandSpec();
        if (ex instanceof CommandLine.UnmatchedArgumentException) {
            return unmatched((CommandLine.UnmatchedArgumentException) ex, spec);
        }
        if (ex instanceof CommandLine.MissingParameterException) {
            List<ArgSpec> missing = ((CommandLine.MissingParameterException) ex).getMissing();
            if (!missing.isEmpty() && missing.get(0).isOption()) {
                OptionSpec option = (OptionSpec) missing.get(0);
                return option.longestName() + ": needs a value " + option.paramLabel() + " after it";
            }
        }
        if (ex instanceof CommandLine.OverwrittenOptionException) {
            ArgSpec option = ((CommandLine.OverwrittenOptionException) ex).getOverwritten();
            return name(option) + ": given more than once; give it once";
        }
        ArgSpec arg = ex.getArgSpec();
        if (arg != null && ex.getValue() != null && ex.getCause() instanceof CommandLine.TypeConversionException) {
            return badValue(arg, ex.getValue());
        }
        if (arg != null && Map.class.isAssignableFrom(arg.type()) && ex.getValue() != null
                && !ex.getValue().contains("=")) {
            return name(arg) + ": each value must have the form " + arg.paramLabel() + ", got '" + ex.getValue() + "'";
        }
        // Anything else picocli finds: its own message, which names the option.
        String message = ex.getMessage();
        return message == null || message.isEmpty() ? "cannot parse the command line"
                : Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }

    /** A value picocli could not convert to the option's type: say which type, and its range for integers. */
    private static String badValue(ArgSpec arg, String value) {
        Class<?>[] types = arg.auxiliaryTypes();
        Class<?> type = types.length == 0 ? arg.type() : types[types.length - 1];
        String subject;
        if (Map.class.isAssignableFrom(arg.type())) {
            subject = name(arg) + ": the value of each " + arg.paramLabel() + " must be ";
        } else if (arg.type().isArray() || Collection.class.isAssignableFrom(arg.type())) {
            subject = name(arg) + ": each " + (arg.paramLabel().contains(",") ? "of " : "") + arg.paramLabel()
                    + " must be ";
        } else {
            subject = name(arg) + ": must be ";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            boolean isLong = type == long.class || type == Long.class;
            if (INTEGER.matcher(value).matches()) { // digits only: out of the type's range
                return value.startsWith("-")
                        ? subject + "an integer no smaller than " + (isLong ? Long.MIN_VALUE : Integer.MIN_VALUE)
                                + ", got " + value
                        : subject + "an integer no larger than " + (isLong ? Long.MAX_VALUE : Integer.MAX_VALUE)
                                + ", got " + value;
            }
            return subject + "an integer such as 4, got '" + value + "'";
        }
        if (type == float.class || type == Float.class || type == double.class || type == Double.class) {
            return subject + "a number such as 2, 0.5 or 1e-4, got '" + value + "'";
        }
        if (type == boolean.class || type == Boolean.class) {
            return arg.arity().max() == 0 && arg.isOption()
                    ? name(arg) + ": takes no value (give the flag alone, or =true / =false), got '" + value + "'"
                    : subject + "true or false, got '" + value + "'";
        }
        return subject + "a " + type.getSimpleName() + ", got '" + value + "'";
    }

    /** An argument no option or parameter of the command takes. */
    private static String unmatched(CommandLine.UnmatchedArgumentException ex, CommandSpec spec) {
        List<String> rest = ex.getUnmatched();
        String first = rest.isEmpty() ? "" : rest.get(0);
        List<String> suggestions = nearest(first.contains("=") ? first.substring(0, first.indexOf('=')) : first,
                ex.getSuggestions());
        String didYouMean = suggestions.isEmpty() ? "" : " (did you mean " + String.join(" or ", suggestions) + "?)";
        if (first.startsWith("-")) {
            String flag = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
            return flag + ": unknown option of '" + spec.qualifiedName() + "'" + didYouMean;
        }
        if (!spec.subcommands().isEmpty() && spec.positionalParameters().isEmpty()) {
            return "'" + first + "': unknown command; the commands are "
                    + String.join(", ", spec.subcommands().keySet()) + didYouMean;
        }
        List<String> labels = new ArrayList<>();
        int most = 0;
        for (PositionalParamSpec p : spec.positionalParameters()) {
            labels.add(p.paramLabel());
            most += p.arity().max();
        }
        if (labels.isEmpty()) {
            return "'" + first + "': unexpected argument; '" + spec.qualifiedName() + "' takes no arguments, only options";
        }
        return "'" + first + "': unexpected argument; '" + spec.qualifiedName() + "' takes at most " + most + " ("
                + String.join(" ", labels) + ") before or between its options";
    }

    private static String name(ArgSpec arg) {
        return arg.isOption() ? ((OptionSpec) arg).longestName() : arg.paramLabel();
    }

    /** Of picocli's suggestions, those nearest to what was typed (fewest edits): --frams is --frames, not --friction. */
    private static List<String> nearest(String typed, List<String> suggestions) {
        int best = Integer.MAX_VALUE;
        List<String> out = new java.util.ArrayList<>();
        for (String s : suggestions) {
            int d = editDistance(typed, s);
            if (d < best) {
                best = d;
                out.clear();
            }
            if (d == best) {
                out.add(s);
            }
        }
        return out;
    }

    private static int editDistance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                int substitute = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), substitute);
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
