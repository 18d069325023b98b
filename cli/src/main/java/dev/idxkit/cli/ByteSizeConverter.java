package dev.idxkit.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Sizes as DBAs type them: {@code 512m}, {@code 2g}, {@code 64k}, {@code 1048576} (bytes). */
public final class ByteSizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    if (v.endsWith("ib")) {
      v = v.substring(0, v.length() - 2);
    } else if (v.endsWith("b")) {
      v = v.substring(0, v.length() - 1);
    }
    long unit = 1;
    if (!v.isEmpty()) {
      switch (v.charAt(v.length() - 1)) {
        case 'k' -> unit = 1L << 10;
        case 'm' -> unit = 1L << 20;
        case 'g' -> unit = 1L << 30;
        case 't' -> unit = 1L << 40;
        default -> unit = 1;
      }
    }
    String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
    try {
      long n = Long.parseLong(digits.strip());
      if (n < 0 || n > Long.MAX_VALUE / unit) {
        throw new NumberFormatException();
      }
      return n * unit;
    } catch (NumberFormatException e) {
      throw new TypeConversionException(
          "size '" + value + "' (expected: a whole number with an optional k, m, g or t suffix)");
    }
  }
}
