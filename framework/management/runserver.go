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
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/framing"
)

// defaultAddr is where runserver listens without an ADDR argument.
const defaultAddr = "127.0.0.1:8000"

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
// HTTP/1.0) with 400 and closes its connection, and logs on env.Stderr
// with the logger newLogger makes of LOG_FORMAT and LOG_LEVEL (buffered:
// lines come out within LogFlushInterval), which it sets as env.Logger
// before calling handler: one line per request, request IDs on every line
// (accesslog.New). On SIGINT, SIGTERM or the end of ctx (which ends
// the ctx handler got: the API's /readyz answers 503 from then on) it
// waits SHUTDOWN_DELAY (a duration, "5s"; none by default) while still
// serving, so that load balancers see /readyz fail, then stops accepting
// and drains in-flight requests for up to ShutdownTimeout; the command's
// AtClose functions and the database's pool close after. Serving an
// SQLite database that handler opened (env.DB), it gives the Go scheduler
// one P more than the cores it has, unless GOMAXPROCS is set (cgoProc).
func Runserver(handler func(ctx context.Context, env *Env) (http.Handler, error), onStart func(env *Env, addr string)) Command {
	return RunserverWithLimits(DefaultServerLimits, handler, onStart)
}

// RunserverWithLimits is Runserver with other limits.
func RunserverWithLimits(limits ServerLimits, handler func(ctx context.Context, env *Env) (http.Handler, error), onStart func(env *Env, addr string)) Command {
	return Command{
		Name:  "runserver",
		Usage: "[ADDR]",
		Help:  "Starts a web server: runserver [PORT | HOST:PORT], by default " + defaultAddr + ".",
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return flag.ErrHelp
			}
			if len(args) > 1 {
				return &UsageError{Msg: "unexpected argument " + args[1]}
			}
			addr := defaultAddr
			if len(args) == 1 {
				var err error
				if addr, err = parseAddr(args[0]); err != nil {
					return err
				}
			}
			var delay time.Duration
			if v := env.Var("SHUTDOWN_DELAY"); v != "" {
				d, err := time.ParseDuration(v)
				if err != nil || d < 0 {
					return &CommandError{Msg: fmt.Sprintf("SHUTDOWN_DELAY=%q is not a duration such as 5s", v)}
				}
				delay = d
			}
			logs := newBufferedLog(env.Stderr)
			defer logs.Close()
			logger, err := newLogger(logs, env.Var("LOG_FORMAT"), env.Var("LOG_LEVEL"))
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			env.Logger = logger
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			h, err := handler(ctx, env)
			if err != nil {
				return err
			}
			if env.db != nil && store.DialectOf(env.db) == store.SQLite {
				cgoProc.Do(addCgoProc)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return &CommandError{Msg: "Error: " + listenError(err)}
			}
			srv := &http.Server{
				Handler:           accesslog.New(logger, framing.Refuse(h)),
				ConnContext:       framing.ConnContext,
				ReadHeaderTimeout: limits.ReadHeaderTimeout,
				ReadTimeout:       limits.ReadTimeout,
				WriteTimeout:      limits.WriteTimeout,
				IdleTimeout:       limits.IdleTimeout,
				MaxHeaderBytes:    limits.MaxHeaderBytes,
				ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelError),
			}
			// Every request reaches the handler, OPTIONS * too (to the
			// site's 404, as in Django), so that framing.Refuse
			// counts a connection's requests as framing does.
			srv.DisableGeneralOptionsHandler = true
			bound := ln.Addr().String()
			fmt.Fprintf(env.Stdout, "Starting development server at http://%s/\nQuit the server with CONTROL-C.\n", bound)
			if onStart != nil {
				onStart(env, bound)
			}
			served := make(chan error, 1)
			go func() { served <- srv.Serve(framing.Listener(ln)) }()
			select {
			case err := <-served:
				return err
			case <-ctx.Done():
			}
			logger.Info("shutting down")
			if delay > 0 {
				time.Sleep(delay)
			}
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

// cgoProc gives the process's scheduler one P (a goroutine running Go
// code at a time) more than it has, once, when runserver serves an SQLite
// database and the GOMAXPROCS environment variable does not set them.
// go-sqlite3 runs each statement in C, and a P taken into C stays there
// until the scheduler's monitor takes it back: with one P per core, the
// requests that are ready wait behind long statements. On 2 cores, a
// page 90,000 books deep, 32 clients: p99 from 245-610 ms to 118-125
// ms at the same requests/s, and the token page-number list's from
// 23-25 ms to 16-18 ms (docs/performance.md).
var cgoProc sync.Once

// addCgoProc adds the P of cgoProc.
func addCgoProc() {
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
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

// newLogger returns runserver's logger on w: log/slog's text handler, or
// its JSON handler when format is "json", at level ("debug", "info",
// "warn" or "error", in any case; "" is info), its records carrying the
// request ID of the request they are logged for (accesslog.LogHandler).
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if level != "" {
		if err := lv.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("LOG_LEVEL=%q is not debug, info, warn or error", level)
		}
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(accesslog.LogHandler(slog.NewTextHandler(w, opts))), nil
	case "json":
		return slog.New(accesslog.LogHandler(slog.NewJSONHandler(w, opts))), nil
	}
	return nil, fmt.Errorf("LOG_FORMAT=%q is not text or json", format)
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
