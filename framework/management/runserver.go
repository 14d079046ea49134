package management

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultAddr is where runserver listens without an ADDR argument.
const DefaultAddr = "127.0.0.1:8000"

// ShutdownTimeout is how long runserver lets in-flight requests finish after
// SIGINT, SIGTERM or the end of its context before closing them.
const ShutdownTimeout = 10 * time.Second

// ServerLimits bound what runserver's HTTP server grants each client, so
// that slow or greedy clients cannot hold it.
type ServerLimits struct {
	// ReadHeaderTimeout is how long a client may take to send the request
	// line and headers; a client that trickles them is disconnected.
	ReadHeaderTimeout time.Duration
	// ReadTimeout is how long a client may take to send a whole request,
	// body included.
	ReadTimeout time.Duration
	// WriteTimeout is how long an answer may take, from the end of the
	// request's headers.
	WriteTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps the request line and headers; larger ones are
	// refused with 431.
	MaxHeaderBytes int
}

// DefaultServerLimits are runserver's limits.
var DefaultServerLimits = ServerLimits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	WriteTimeout:      60 * time.Second,
	IdleTimeout:       120 * time.Second,
	MaxHeaderBytes:    1 << 20,
}

// Runserver returns the "runserver [ADDR]" command. ADDR is PORT
// (on 127.0.0.1) or HOST:PORT, host "0" meaning every IPv4 address; the
// default is 127.0.0.1:8000. handler builds what to serve (it may migrate,
// seed, read settings); onStart, if not nil, is told the address once the
// server listens, which is how a port 0 becomes known. The server has
// DefaultServerLimits against slow clients, refuses a request whose
// framing is faulty (Transfer-Encoding with Content-Length, or in
// HTTP/1.0) with 400 and closes its connection, logs each request (method,
// path without query, status, duration) on env.Stderr with log/slog
// (buffered: lines come out within LogFlushInterval), and on
// SIGINT, SIGTERM or the end of ctx stops accepting and drains in-flight
// requests for up to ShutdownTimeout.
func Runserver(handler func(ctx context.Context, env *Env) (http.Handler, error), onStart func(env *Env, addr string)) Command {
	return RunserverWithLimits(DefaultServerLimits, handler, onStart)
}

// RunserverWithLimits is Runserver with other limits.
func RunserverWithLimits(limits ServerLimits, handler func(ctx context.Context, env *Env) (http.Handler, error), onStart func(env *Env, addr string)) Command {
	return Command{
		Name:  "runserver",
		Usage: "[ADDR]",
		Help:  "Starts a web server: runserver [PORT | HOST:PORT], by default " + DefaultAddr + ".",
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return flag.ErrHelp
			}
			if len(args) > 1 {
				return &UsageError{Msg: "unexpected argument " + args[1]}
			}
			addr := DefaultAddr
			if len(args) == 1 {
				var err error
				if addr, err = parseAddr(args[0]); err != nil {
					return err
				}
			}
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			h, err := handler(ctx, env)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return &CommandError{Msg: "Error: " + listenError(err)}
			}
			logs := newBufferedLog(env.Stderr)
			defer logs.Close()
			logger := slog.New(slog.NewTextHandler(logs, nil))
			srv := &http.Server{
				Handler:           logRequests(logs, refuseFaultyFraming(h)),
				ConnContext:       withConn,
				ReadHeaderTimeout: limits.ReadHeaderTimeout,
				ReadTimeout:       limits.ReadTimeout,
				WriteTimeout:      limits.WriteTimeout,
				IdleTimeout:       limits.IdleTimeout,
				MaxHeaderBytes:    limits.MaxHeaderBytes,
				ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelError),
			}
			// Every request reaches the handler, OPTIONS * too (to the
			// site's 404, as in Django), so that refuseFaultyFraming
			// counts a connection's requests as framing does.
			srv.DisableGeneralOptionsHandler = true
			bound := ln.Addr().String()
			fmt.Fprintf(env.Stdout, "Starting development server at http://%s/\nQuit the server with CONTROL-C.\n", bound)
			if onStart != nil {
				onStart(env, bound)
			}
			served := make(chan error, 1)
			go func() { served <- srv.Serve(framedListener{ln}) }()
			select {
			case err := <-served:
				return err
			case <-ctx.Done():
			}
			logger.Info("shutting down")
			drain, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
			defer cancel()
			if err := srv.Shutdown(drain); err != nil {
				_ = srv.Close()
				return fmt.Errorf("shutdown: %w", err)
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
}

// parseAddr turns runserver's ADDR argument into a listen address, with
// Django's message for what it cannot read.
func parseAddr(arg string) (string, error) {
	bad := &CommandError{Msg: fmt.Sprintf("%q is not a valid port number or address:port pair.", arg)}
	host, port := "127.0.0.1", arg
	if i := strings.LastIndex(arg, ":"); i >= 0 {
		host, port = arg[:i], arg[i+1:]
		switch {
		case host == "0":
			host = "0.0.0.0"
		case strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]"):
			host = host[1 : len(host)-1]
			if net.ParseIP(host) == nil {
				return "", bad
			}
		case host == "" || strings.Contains(host, ":"):
			return "", bad
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 || strings.TrimLeft(port, "0123456789") != "" {
		return "", bad
	}
	return net.JoinHostPort(host, port), nil
}

// listenError words a listen failure the way Django does where it can.
func listenError(err error) string {
	if errors.Is(err, syscall.EADDRINUSE) {
		return "That port is already in use."
	}
	if errors.Is(err, syscall.EACCES) {
		return "You don't have permission to access that port."
	}
	return err.Error()
}

// LogFlushInterval bounds how long runserver holds log lines before it
// writes them out: a request does not wait for a write to stderr, and
// lines come out at most this late (or when the server stops).
const LogFlushInterval = 100 * time.Millisecond

// bufferedLog is runserver's log output: writes are buffered and flushed
// every LogFlushInterval, when the buffer fills, and on Close.
type bufferedLog struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newBufferedLog(w io.Writer) *bufferedLog {
	l := &bufferedLog{w: bufio.NewWriterSize(w, 32<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		tick := time.NewTicker(LogFlushInterval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				l.flush()
			case <-l.stop:
				return
			}
		}
	}()
	return l
}

// Write buffers p, a whole log record.
func (l *bufferedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *bufferedLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.w.Flush()
}

// Close stops the flushing and writes out what is buffered.
func (l *bufferedLog) Close() {
	close(l.stop)
	<-l.done
	l.flush()
}

// logRequests logs one line per request: method, path (never the query
// string or headers, which may carry secrets), status and duration, in
// log/slog's text format, appended straight into the log's buffer.
func logRequests(logs *bufferedLog, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		logs.request(r.Method, r.URL.Path, rec.status, start)
	})
}

// request writes the request's log line.
func (l *bufferedLog) request(method, path string, status int, start time.Time) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(appendRequestLine(l.w.AvailableBuffer(), now, method, path, status, now.Sub(start)))
}

// appendRequestLine appends the line slog.TextHandler writes for a record
// at t of Info("request", "method", method, "path", path, "status",
// status, "duration", d), without slog's per-record work (caller lookup,
// record, attribute walk).
func appendRequestLine(b []byte, t time.Time, method, path string, status int, d time.Duration) []byte {
	// slog's time: RFC 3339 with exactly three decimals.
	b = append(b, "time="...)
	n := len(b) + len("2006-01-02T15:04:05.000")
	b = t.Round(0).Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	b = append(b[:n], b[n+1:]...)
	b = append(b, " level=INFO msg=request method="...)
	b = appendLogValue(b, method)
	b = append(b, " path="...)
	b = appendLogValue(b, path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " duration="...)
	b = append(b, d.String()...)
	return append(b, '\n')
}

// appendLogValue appends s as slog's text handler does: bare, unless it
// is empty or holds a space, '=', '"', a control character or a rune
// that is invalid, a space or not printable; then quoted.
func appendLogValue(b []byte, s string) []byte {
	quote := s == ""
	for i := 0; i < len(s) && !quote; {
		if c := s[i]; c < utf8.RuneSelf {
			quote = c <= ' ' || c == '=' || c == '"'
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		quote = r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r)
		i += size
	}
	if quote {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

// statusRecorder remembers the status a handler sent.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the first final status and passes it on.
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 && code >= 200 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 and passes the bytes on.
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush lets streaming handlers flush through the recorder.
func (s *statusRecorder) Flush() {
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
