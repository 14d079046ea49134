// Package management is the command-line entry point a project builds its
// own manage binary on, like Django's manage.py: global options, command
// dispatch, Django's error conventions, and the built-in commands migrate,
// runserver and inspectdb (createsuperuser is contrib/auth's).
package management

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// defaultDatabase is the database used when neither --database nor
// DATABASE_URL names one.
const defaultDatabase = "db.sqlite3"

// Command is one subcommand of the manage binary.
type Command struct {
	// Name is what selects the command: "migrate".
	Name string
	// Usage is the argument synopsis after the name: "[--noinput]".
	Usage string
	// Help describes the command; its first line is shown in the list.
	Help string
	// Run does the work. A *CommandError exits 1 with Django's
	// "CommandError: ..." line, a *UsageError or flag.ErrHelp prints the
	// command's usage (exit 2 or 0); other errors exit 1.
	Run func(ctx context.Context, env *Env, args []string) error
}

// Env is what a command runs with.
type Env struct {
	// Stdout receives the command's output.
	Stdout io.Writer
	// Stderr receives errors, warnings and logs.
	Stderr io.Writer
	// Stdin is where prompts read their answers.
	Stdin io.Reader
	// DatabaseURL is the database the command works on (see store.Open).
	DatabaseURL string
	// Getenv reads the process environment; nil reads none.
	Getenv func(string) string
	// Prog is the program name shown in usage messages; "" means "manage".
	Prog string
	// Store are the options DB opens the database with.
	Store store.Options
	// Logger is the command's logger: runserver sets it (LOG_FORMAT,
	// LOG_LEVEL) before it builds its handler; nil means slog.Default().
	Logger *slog.Logger

	once    sync.Once
	db      *sqlx.DB
	dbErr   error
	closers []func()
}

// DB opens the database the first time it is called and returns the same
// pool afterwards; Execute closes it when the command returns.
func (e *Env) DB() (*sqlx.DB, error) {
	e.once.Do(func() { e.db, e.dbErr = store.OpenWith(e.DatabaseURL, e.Store) })
	return e.db, e.dbErr
}

// AtClose registers fn to run when the command returns, before the
// database closes, the last registered first: what flushes telemetry
// once runserver has drained its requests.
func (e *Env) AtClose(fn func()) { e.closers = append(e.closers, fn) }

// Var returns the environment variable name through Getenv, "" when
// Getenv is nil.
func (e *Env) Var(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

func (e *Env) prog() string {
	if e.Prog == "" {
		return "manage"
	}
	return e.Prog
}

// close runs the AtClose functions, then closes the database if DB
// opened it.
func (e *Env) close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
	e.once.Do(func() { e.dbErr = errors.New("management: the command has finished") })
	if e.db != nil {
		_ = e.db.Close()
	}
}

// CommandError is a failure the user can act on; Execute prints
// "CommandError: <Msg>" on stderr and exits 1, as Django does.
type CommandError struct {
	// Msg is the message, in Django's wording where Django has one.
	Msg string
}

// Error returns Msg.
func (e *CommandError) Error() string { return e.Msg }

// UsageError is a command line the command cannot accept; Execute prints it
// with the command's usage on stderr and exits 2.
type UsageError struct {
	// Msg says what is wrong.
	Msg string
}

// Error returns Msg.
func (e *UsageError) Error() string { return e.Msg }

// ParseFlags parses a command's args with fs, returning flag.ErrHelp for
// -h/--help and a *UsageError for anything fs rejects.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &UsageError{Msg: err.Error()}
}

// Main runs the command named by args (os.Args[1:]) with the process's
// standard streams and environment, and returns the exit status for os.Exit.
func Main(args []string, cmds ...Command) int {
	env := &Env{
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Stdin:  os.Stdin,
		Getenv: os.Getenv,
		Prog:   filepath.Base(os.Args[0]),
	}
	return Execute(context.Background(), env, args, cmds...)
}

// Execute parses the global options in args, runs the selected command of
// cmds (a later command of the same name replaces an earlier one) with env,
// and returns the exit status: 0 on success, 1 when the command fails,
// 2 for an unknown command or a bad command line. The database is
// --database URL, else env.DatabaseURL, else $DATABASE_URL, else
// db.sqlite3. "help" lists the commands; "help COMMAND" describes one.
func Execute(ctx context.Context, env *Env, args []string, cmds ...Command) int {
	defer env.close()
	byName := map[string]Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	fs := flag.NewFlagSet(env.prog(), flag.ContinueOnError)
	database := fs.String("database", "", "")
	switch err := ParseFlags(fs, args); {
	case errors.Is(err, flag.ErrHelp):
		printUsage(env.Stdout, env.prog(), byName)
		return 0
	case err != nil:
		fmt.Fprintf(env.Stderr, "%s: %v\n", env.prog(), err)
		printUsage(env.Stderr, env.prog(), byName)
		return 2
	}
	rest := fs.Args()
	if len(rest) == 0 {
		printUsage(env.Stderr, env.prog(), byName)
		return 2
	}
	switch {
	case *database != "":
		env.DatabaseURL = *database
	case env.DatabaseURL != "":
		// Set by the caller.
	case env.Var("DATABASE_URL") != "":
		env.DatabaseURL = env.Var("DATABASE_URL")
	default:
		env.DatabaseURL = defaultDatabase
	}
	name := rest[0]
	if name == "help" {
		return help(env, rest[1:], byName)
	}
	cmd, ok := byName[name]
	if !ok {
		fmt.Fprintf(env.Stderr, "Unknown command: %q\n", name)
		printUsage(env.Stderr, env.prog(), byName)
		return 2
	}
	err := cmd.Run(ctx, env, rest[1:])
	var cmdErr *CommandError
	var usageErr *UsageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		printCommandHelp(env.Stdout, env.prog(), cmd)
		return 0
	case errors.As(err, &usageErr):
		fmt.Fprintf(env.Stderr, "%s %s: %s\n", env.prog(), cmd.Name, usageErr.Msg)
		fmt.Fprintf(env.Stderr, "usage: %s\n", synopsis(env.prog(), cmd))
		return 2
	case errors.As(err, &cmdErr):
		fmt.Fprintf(env.Stderr, "CommandError: %s\n", cmdErr.Msg)
		return 1
	default:
		fmt.Fprintf(env.Stderr, "%s %s: %v\n", env.prog(), cmd.Name, err)
		return 1
	}
}

// help answers "help [COMMAND]".
func help(env *Env, args []string, cmds map[string]Command) int {
	switch len(args) {
	case 0:
		printUsage(env.Stdout, env.prog(), cmds)
		return 0
	case 1:
		if cmd, ok := cmds[args[0]]; ok {
			printCommandHelp(env.Stdout, env.prog(), cmd)
			return 0
		}
		fmt.Fprintf(env.Stderr, "Unknown command: %q\n", args[0])
	default:
		fmt.Fprintf(env.Stderr, "%s help: too many arguments\n", env.prog())
	}
	printUsage(env.Stderr, env.prog(), cmds)
	return 2
}

func synopsis(prog string, cmd Command) string {
	return strings.TrimSpace(prog + " " + cmd.Name + " " + cmd.Usage)
}

func printUsage(w io.Writer, prog string, cmds map[string]Command) {
	fmt.Fprintf(w, "usage: %s [--database URL] <command> [arguments]\n\n", prog)
	fmt.Fprintf(w, "The database is --database URL, else $DATABASE_URL, else %s.\n", defaultDatabase)
	fmt.Fprintf(w, "Type '%s help <command>' for help on a specific command.\n\nAvailable commands:\n", prog)
	names := make([]string, 0, len(cmds)+1)
	for name := range cmds {
		names = append(names, name)
	}
	if _, ok := cmds["help"]; !ok {
		names = append(names, "help")
	}
	slices.Sort(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		summary := "Lists the commands, or describes one."
		if c, ok := cmds[n]; ok {
			summary, _, _ = strings.Cut(c.Help, "\n")
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, summary)
	}
}

func printCommandHelp(w io.Writer, prog string, cmd Command) {
	fmt.Fprintf(w, "usage: %s\n", synopsis(prog, cmd))
	if cmd.Help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.Help))
	}
}
