package dev.idxkit.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 by hand over a plain socket, for what a well-behaved client library will not send:
 * garbage, half requests, giant headers, one byte at a time. Every socket has a read timeout as a
 * safety net, so a server that never answers fails the test instead of hanging it.
 */
final class RawHttp {
  static final int SAFETY_TIMEOUT_MILLIS = 60_000;

  private RawHttp() {}

  /** A response as read: status code, headers (lower-case names), body (de-chunked). */
  record Response(int status, Map<String, String> headers, String body, boolean complete) {}

  static Socket connect(InetSocketAddress a) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(SAFETY_TIMEOUT_MILLIS);
    s.connect(a, SAFETY_TIMEOUT_MILLIS);
    return s;
  }

  static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    s.getOutputStream().flush();
  }

  static String get(String path) {
    return "GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
  }

  /** Everything until the server closes the connection. */
  static byte[] readToEnd(Socket s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = s.getInputStream();
    byte[] buf = new byte[8192];
    try {
      int n;
      while ((n = in.read(buf)) >= 0) {
        out.write(buf, 0, n);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "the server neither answered nor closed within " + SAFETY_TIMEOUT_MILLIS + " ms", e);
    } catch (IOException e) {
      // A reset after the server closed with unread input: what was read is the answer.
    }
    return out.toByteArray();
  }

  /** A response's status line and headers, read before its body. */
  record Head(int status, Map<String, String> headers) {}

  /** Reads one response (Content-Length or chunked); {@code complete} false if the stream ended. */
  static Response read(InputStream in) throws IOException {
    Head head = readHead(in);
    return head == null ? null : readBody(in, head);
  }

  static Head readHead(InputStream in) throws IOException {
    String statusLine = line(in);
    if (statusLine == null) {
      return null;
    }
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    String h;
    while ((h = line(in)) != null && !h.isEmpty()) {
      int c = h.indexOf(':');
      headers.put(h.substring(0, c).strip().toLowerCase(Locale.ROOT), h.substring(c + 1).strip());
    }
    return new Head(status, headers);
  }

  static Response readBody(InputStream in, Head head) throws IOException {
    int status = head.status();
    Map<String, String> headers = head.headers();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    boolean complete = true;
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      while (true) {
        String size = line(in);
        if (size == null) {
          complete = false;
          break;
        }
        int n = Integer.parseInt(size.strip(), 16);
        if (n == 0) {
          line(in); // the empty line after the last chunk
          break;
        }
        if (!copy(in, body, n)) {
          complete = false;
          break;
        }
        line(in);
      }
    } else {
      long n = Long.parseLong(headers.getOrDefault("content-length", "0"));
      complete = copy(in, body, n);
    }
    return new Response(status, headers, body.toString(StandardCharsets.UTF_8), complete);
  }

  private static boolean copy(InputStream in, ByteArrayOutputStream out, long n)
      throws IOException {
    byte[] buf = new byte[8192];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) {
        return false;
      }
      out.write(buf, 0, r);
      n -= r;
    }
    return true;
  }

  /** A CRLF-terminated line without its CRLF, or null at the end of the stream. */
  static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        int len = b.length();
        return len > 0 && b.charAt(len - 1) == '\r' ? b.substring(0, len - 1) : b.toString();
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }
}
