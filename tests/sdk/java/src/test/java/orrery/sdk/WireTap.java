package orrery.sdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the SDK really puts on the wire: a TCP relay on 127.0.0.1 in front of an Orrery
 * server that passes every byte through unchanged and keeps the head (request line and
 * headers) of every HTTP/1.1 request the client sent. Point a client at {@link #endpoint()}:
 * Orrery advertises the account's locations from the Host header, which stays the relay's,
 * so the SDK keeps talking through it. Gateway mode over plain HTTP is HTTP/1.1 (the SDK's
 * HTTP/2 is opt-in).
 */
final class WireTap implements AutoCloseable {
    /** One request as sent: method, path and headers (names lowercased). */
    record Request(String method, String path, Map<String, String> headers) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return method + " " + path + " " + headers;
        }
    }

    private final ServerSocket listener;
    private final String upstreamHost;
    private final int upstreamPort;
    private final List<ByteArrayOutputStream> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());

    static WireTap start(OrreryServer server) {
        try {
            return new WireTap(URI.create(server.endpoint()));
        } catch (IOException e) {
            throw new IllegalStateException("could not start the wire tap: " + e, e);
        }
    }

    private WireTap(URI upstream) throws IOException {
        upstreamHost = upstream.getHost();
        upstreamPort = upstream.getPort();
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "wiretap-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** The endpoint to give the SDK instead of the server's. */
    String endpoint() {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/";
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket upstream = new Socket(upstreamHost, upstreamPort);
                sockets.add(client);
                sockets.add(upstream);
                ByteArrayOutputStream record = new ByteArrayOutputStream();
                sent.add(record);
                pump(client, upstream, record);
                pump(upstream, client, null);
            } catch (IOException e) {
                // closed, or the upstream refused: the client sees its connection end
            }
        }
    }

    private static void pump(Socket from, Socket to, ByteArrayOutputStream record) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (record != null) {
                        synchronized (record) {
                            record.write(buf, 0, n);
                        }
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "wiretap-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Every request sent so far, per connection in order. */
    List<Request> requests() {
        List<Request> out = new ArrayList<>();
        List<ByteArrayOutputStream> records;
        synchronized (sent) {
            records = new ArrayList<>(sent);
        }
        for (ByteArrayOutputStream record : records) {
            String s;
            synchronized (record) {
                s = record.toString(StandardCharsets.ISO_8859_1);
            }
            parse(s, out);
        }
        return out;
    }

    /** Request heads of one connection's byte stream, skipping the bodies. */
    private static void parse(String s, List<Request> out) {
        int pos = 0;
        while (true) {
            int end = s.indexOf("\r\n\r\n", pos);
            if (end < 0) return;
            String[] lines = s.substring(pos, end).split("\r\n");
            String[] requestLine = lines[0].split(" ");
            if (requestLine.length < 3) return;
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
            }
            out.add(new Request(requestLine[0], requestLine[1], headers));
            pos = end + 4;
            String length = headers.get("content-length");
            if (length != null) {
                pos += Integer.parseInt(length);
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                while (true) {
                    int lineEnd = s.indexOf("\r\n", pos);
                    if (lineEnd < 0) return;
                    int size = Integer.parseInt(s.substring(pos, lineEnd).split(";")[0].trim(), 16);
                    pos = lineEnd + 2 + size + 2;
                    if (size == 0) break;
                }
            }
            if (pos > s.length()) return;
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // best effort
        }
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
