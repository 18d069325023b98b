package dev.idxkit.cli.server;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.ProblemText;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The socket layer under the server: Linux epoll (Netty's native transport, fewer system calls and
 * no selector wake-up garbage) where the native library loads, else the JDK's NIO selector. The
 * startup line says which one runs, so a DBA can tell why a box behaves differently.
 */
public enum Transport {
  EPOLL("epoll"),
  NIO("nio");

  /** What the user asked for. */
  public enum Choice {
    /** epoll if available, else NIO. */
    AUTO,
    /** epoll or fail: for checking that the native transport works on a box. */
    EPOLL,
    NIO
  }

  private final String label;

  Transport(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The transport {@code choice} gives here; an explicit EPOLL that cannot load is bad input. */
  public static Transport choose(Choice choice) {
    switch (choice) {
      case NIO:
        return NIO;
      case EPOLL:
        if (!Epoll.isAvailable()) {
          Throwable why = Epoll.unavailabilityCause();
          throw new InvalidInputException(
              "--transport epoll : not available here ("
                  + (why == null ? "unknown reason" : ProblemText.of(why))
                  + "; expected: Linux x86_64 with the netty-transport-native-epoll jar)");
        }
        return EPOLL;
      case AUTO:
        return Epoll.isAvailable() ? EPOLL : NIO;
      default:
        throw new AssertionError(choice);
    }
  }

  IoHandlerFactory ioHandlerFactory() {
    return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
  }

  Class<? extends ServerChannel> serverChannel() {
    return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
