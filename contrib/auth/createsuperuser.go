package auth

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/go-drf/drf/framework/management"
)

// CreateSuperuserCommand returns Django's "createsuperuser" command. users gives
// the user store to create with, so that its OnCreate hooks run (nil means a
// plain Users on env.DB()).
//
// With --noinput the username comes from --username or
// $DJANGO_SUPERUSER_USERNAME, the e-mail from --email or
// $DJANGO_SUPERUSER_EMAIL (both required, as in Django), and the password
// from $DJANGO_SUPERUSER_PASSWORD (unset: an unusable password). Otherwise
// it prompts for what the flags did not give, reading the password without
// echo on a terminal and as plain lines from a pipe. Django's password
// validators are not applied. The superuser is stored under the username's
// NFKC form, as Django's create_superuser stores it: "ａｄｍｉｎ" (fullwidth)
// is admin, and is refused as taken when admin exists.
func CreateSuperuserCommand(users func(ctx context.Context, env *management.Env) (*Users, error)) management.Command {
	return management.Command{
		Name:  "createsuperuser",
		Usage: "[--username NAME] [--email EMAIL] [--noinput]",
		Help:  "Used to create a superuser.",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			fs := flag.NewFlagSet("createsuperuser", flag.ContinueOnError)
			username := fs.String("username", "", "")
			email := fs.String("email", "", "")
			noinput := fs.Bool("noinput", false, "")
			fs.BoolVar(noinput, "no-input", false, "")
			if err := management.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return &management.UsageError{Msg: "unexpected argument " + fs.Arg(0)}
			}
			given := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
			store, err := openUsers(ctx, env, users)
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			c := &superuserCmd{env: env, users: store}
			var u input
			if *noinput {
				u, err = c.fromEnvironment(ctx, *username, given["username"], *email, given["email"])
			} else {
				u, err = c.prompt(ctx, *username, given["username"], *email, given["email"])
			}
			if err != nil {
				return err
			}
			_, err = store.CreateSuperuser(ctx, u.username, u.email, u.password)
			if errors.Is(err, ErrUsernameTaken) {
				return &management.CommandError{Msg: "Error: That username is already taken."}
			}
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, "Superuser created successfully.")
			return nil
		},
	}
}

func openUsers(ctx context.Context, env *management.Env, users func(context.Context, *management.Env) (*Users, error)) (*Users, error) {
	if users != nil {
		return users(ctx, env)
	}
	db, err := env.DB()
	if err != nil {
		return nil, err
	}
	return &Users{DB: db}, nil
}

// input is what createsuperuser gathered.
type input struct{ username, email, password string }

type superuserCmd struct {
	env   *management.Env
	users *Users
	lines *bufio.Reader
}

// checkUsername is Django's _validate_username: "" when name is usable.
// Beyond Django it finds the name taken when its NFKC form is, the name
// the superuser would be stored under: Django's check looks up the name as
// typed, and the user's creation then fails on the unique username with
// an IntegrityError's traceback.
func (c *superuserCmd) checkUsername(ctx context.Context, name string) (string, error) {
	names := []string{name}
	if n := NormalizeUsername(name); n != name {
		names = append(names, n)
	}
	for _, n := range names {
		_, err := c.users.GetByUsername(ctx, n)
		if err == nil {
			return "Error: That username is already taken.", nil
		}
		if !errors.Is(err, ErrNotFound) {
			return "", err
		}
	}
	if name == "" {
		return "Username cannot be blank.", nil
	}
	if err := ValidateUsername(name); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

func (c *superuserCmd) fromEnvironment(ctx context.Context, username string, haveUsername bool, email string, haveEmail bool) (input, error) {
	if !haveUsername {
		username = c.env.Var("DJANGO_SUPERUSER_USERNAME")
		if username == "" {
			return input{}, &management.CommandError{Msg: "You must use --username with --noinput."}
		}
	}
	if msg, err := c.checkUsername(ctx, username); err != nil || msg != "" {
		return input{}, commandErr(msg, err)
	}
	if !haveEmail {
		email = c.env.Var("DJANGO_SUPERUSER_EMAIL")
	}
	if email == "" {
		return input{}, &management.CommandError{Msg: "You must use --email with --noinput."}
	}
	if msg := checkEmail(email); msg != "" {
		return input{}, &management.CommandError{Msg: msg}
	}
	return input{username, email, c.env.Var("DJANGO_SUPERUSER_PASSWORD")}, nil
}

func (c *superuserCmd) prompt(ctx context.Context, username string, haveUsername bool, email string, haveEmail bool) (input, error) {
	c.lines = bufio.NewReader(c.env.Stdin)
	if haveUsername {
		if username == "" {
			return input{}, &management.CommandError{Msg: "Username cannot be blank."}
		}
		msg, err := c.checkUsername(ctx, username)
		if err != nil {
			return input{}, err
		}
		if msg != "" {
			fmt.Fprintln(c.env.Stderr, msg)
			haveUsername = false
		}
	}
	def := c.defaultUsername(ctx)
	for !haveUsername {
		question := "Username: "
		if def != "" {
			question = fmt.Sprintf("Username (leave blank to use '%s'): ", def)
		}
		answer, err := c.readLine(question)
		if err != nil {
			return input{}, err
		}
		if answer == "" {
			answer = def
		}
		if answer == "" {
			fmt.Fprintln(c.env.Stderr, "Error: This field cannot be blank.")
			continue
		}
		if err := ValidateUsername(answer); err != nil {
			fmt.Fprintln(c.env.Stderr, "Error: "+err.Error())
			continue
		}
		msg, err := c.checkUsername(ctx, answer)
		if err != nil {
			return input{}, err
		}
		if msg != "" {
			fmt.Fprintln(c.env.Stderr, msg)
			continue
		}
		username, haveUsername = answer, true
	}
	for !haveEmail {
		answer, err := c.readLine("Email address: ")
		if err != nil {
			return input{}, err
		}
		if msg := checkEmail(answer); answer != "" && msg != "" {
			fmt.Fprintln(c.env.Stderr, "Error: "+msg)
			continue
		}
		email, haveEmail = answer, true
	}
	for {
		p1, err := c.readPassword("Password: ")
		if err != nil {
			return input{}, err
		}
		p2, err := c.readPassword("Password (again): ")
		if err != nil {
			return input{}, err
		}
		switch {
		case p1 != p2:
			fmt.Fprintln(c.env.Stderr, "Error: Your passwords didn't match.")
		case strings.TrimSpace(p1) == "":
			fmt.Fprintln(c.env.Stderr, "Error: Blank passwords aren't allowed.")
		default:
			return input{username, email, p1}, nil
		}
	}
}

// defaultUsername is Django's get_default_username: the login name,
// lower-cased, when it is a valid username that is not taken.
func (c *superuserCmd) defaultUsername(ctx context.Context) string {
	name := strings.ToLower(c.env.Var("USER"))
	if name == "" {
		return ""
	}
	if msg, err := c.checkUsername(ctx, name); err != nil || msg != "" {
		return ""
	}
	return name
}

// readLine prints question and reads one answer; end of input cancels.
func (c *superuserCmd) readLine(question string) (string, error) {
	fmt.Fprint(c.env.Stdout, question)
	line, err := c.lines.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		fmt.Fprintln(c.env.Stdout)
		return "", &management.CommandError{Msg: "Operation cancelled."}
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// readPassword reads without echo from a terminal, else as a line.
func (c *superuserCmd) readPassword(question string) (string, error) {
	f, ok := c.env.Stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return c.readLine(question)
	}
	fmt.Fprint(c.env.Stdout, question)
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(c.env.Stdout)
	if err != nil {
		return "", &management.CommandError{Msg: "Operation cancelled."}
	}
	return string(b), nil
}

// checkEmail is a small subset of Django's EmailValidator: "" when email
// looks like local@domain.
func checkEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(email, " \t\r\n") ||
		strings.Contains(domain, "@") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "Enter a valid email address."
	}
	return ""
}

// commandErr turns a validation message or a lookup failure into the
// command's error.
func commandErr(msg string, err error) error {
	if err != nil {
		return err
	}
	return &management.CommandError{Msg: msg}
}
