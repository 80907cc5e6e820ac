package io.tasklane.scheduler.internal.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The value encoding of {@link TaskRecordCodec}: zig-zag variable-length numbers (small magnitudes,
 * positive or negative, take few bytes), strings and JSON values as a length + 1 (0 for null) and
 * their UTF-8 bytes, lists as a count and their elements. Stateless; a {@link Writer} or {@link
 * Reader} is used by one thread.
 */
public final class CompactBytes {
  private CompactBytes() {}

  /** Writes values front to back into a growing buffer. */
  public static final class Writer {
    private final Buffer b;

    public Writer(int size) {
      b = new Buffer(size);
    }

    /** One byte as it is. */
    public void raw(int v) {
      b.write(v);
    }

    public byte[] toByteArray() {
      return b.toByteArray();
    }

    public void bool(boolean v) {
      b.write(v ? 1 : 0);
    }

    /** A zig-zag variable-length number: small magnitudes, positive or negative, take few bytes. */
    public void num(long v) {
      long z = (v << 1) ^ (v >> 63);
      while ((z & ~0x7FL) != 0) {
        b.write((int) ((z & 0x7F) | 0x80));
        z >>>= 7;
      }
      b.write((int) z);
    }

    /** Length + 1 (0: null), then the UTF-8 bytes. */
    public void str(String s) {
      if (s == null) {
        num(0);
        return;
      }
      byte[] u = s.getBytes(StandardCharsets.UTF_8);
      num(u.length + 1L);
      b.write(u, 0, u.length);
    }

    public void strings(List<String> list) {
      num(list.size());
      list.forEach(this::str);
    }

    /** Bytes as they are, as {@link #str}: length + 1 (0: null), then the bytes. */
    public void blob(byte[] bytes) {
      if (bytes == null) {
        num(0);
        return;
      }
      num(bytes.length + 1L);
      b.write(bytes, 0, bytes.length);
    }

    /** A value as JSON through the wire codec's mapper, as {@link #str}; null as null. */
    public void json(Object value) {
      if (value == null) {
        num(0);
        return;
      }
      byte[] u = WireCodec.encode(value);
      num(u.length + 1L);
      b.write(u, 0, u.length);
    }
  }

  /** A {@link java.io.ByteArrayOutputStream} without its locks. */
  private static final class Buffer {
    private byte[] buf;
    private int size;

    Buffer(int capacity) {
      buf = new byte[capacity];
    }

    void write(int v) {
      ensure(1);
      buf[size++] = (byte) v;
    }

    void write(byte[] src, int off, int len) {
      ensure(len);
      System.arraycopy(src, off, buf, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }
  }

  /**
   * Reads values front to back; throws {@link IllegalStateException} on one that runs past the end.
   */
  public static final class Reader {
    private final byte[] b;
    private int pos;

    public Reader(byte[] b, int from) {
      this.b = b;
      this.pos = from;
    }

    public boolean bool() {
      return next() != 0;
    }

    public long num() {
      long z = 0;
      int shift = 0;
      while (true) {
        int x = next();
        z |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          return (z >>> 1) ^ -(z & 1);
        }
        shift += 7;
        if (shift > 63) {
          throw new IllegalStateException("number too long at byte " + pos);
        }
      }
    }

    public int integer() {
      return Math.toIntExact(num());
    }

    /** A count of elements: never negative, never more than the bytes left. */
    public int count() {
      long n = num();
      if (n < 0 || n > b.length - pos) {
        throw new IllegalStateException("count " + n + " at byte " + pos);
      }
      return (int) n;
    }

    public String str() {
      int len = length();
      if (len < 0) {
        return null;
      }
      String s = new String(b, pos, len, StandardCharsets.UTF_8);
      pos += len;
      return s;
    }

    public List<String> strings() {
      int n = count();
      List<String> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(str());
      }
      return out;
    }

    public JsonNode tree() throws IOException {
      int len = length();
      if (len < 0) {
        return null;
      }
      JsonNode n = WireCodec.mapper().readTree(b, pos, len);
      pos += len;
      return n;
    }

    public <T> T json(Class<T> type) throws IOException {
      int len = length();
      if (len < 0) {
        return null;
      }
      T v = WireCodec.mapper().readValue(b, pos, len, type);
      pos += len;
      return v;
    }

    /** One byte as {@link Writer#raw} wrote it (0–255). */
    public int raw() {
      return next() & 0xFF;
    }

    /** Whether every byte has been read. */
    public boolean atEnd() {
      return pos == b.length;
    }

    /** A length of {@link Writer#str}: -1 for null. */
    private int length() {
      long n = num() - 1;
      if (n < -1 || n > b.length - pos) {
        throw new IllegalStateException("length " + n + " at byte " + pos);
      }
      return (int) n;
    }

    private int next() {
      if (pos >= b.length) {
        throw new IllegalStateException("record ends early at byte " + pos);
      }
      return b[pos++];
    }
  }
}
