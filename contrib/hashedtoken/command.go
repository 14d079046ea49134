package hashedtoken

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/management"
)

// Command returns "hashedtoken", the tokens' command line (no admin
// needed), with the lifetime settings of cfg (its DB is the command's
// database):
//
//	hashedtoken create USERNAME [--name NAME]   print a new token's key, the only time it is shown
//	hashedtoken list USERNAME                   the user's live tokens: id, prefix, name, created, expiry
//	hashedtoken revoke USERNAME ID...           revoke some of the user's tokens
//	hashedtoken revoke --all USERNAME           revoke all of them (log out everywhere)
//	hashedtoken clearexpired                    delete expired tokens
func Command(cfg Tokens) management.Command {
	return management.Command{
		Name:  "hashedtoken",
		Usage: "create USERNAME [--name NAME] | list USERNAME | revoke [--all] USERNAME [ID...] | clearexpired",
		Help: "Create, list and revoke a user's hashed tokens.\n\n" +
			"  create USERNAME [--name NAME]  print a new token's key (shown only now)\n" +
			"  list USERNAME                  list the user's live tokens\n" +
			"  revoke USERNAME ID...          revoke the user's tokens ID...\n" +
			"  revoke --all USERNAME          revoke all of the user's tokens\n" +
			"  clearexpired                   delete expired tokens",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			return runCommand(ctx, env, cfg, args)
		},
	}
}

func runCommand(ctx context.Context, env *management.Env, cfg Tokens, args []string) error {
	if len(args) == 0 {
		return &management.UsageError{Msg: "expected a subcommand: create, list, revoke or clearexpired"}
	}
	fs := flag.NewFlagSet("hashedtoken "+args[0], flag.ContinueOnError)
	name := fs.String("name", "", "")
	all := fs.Bool("all", false, "")
	if err := management.ParseFlags(fs, args[1:]); err != nil {
		return err
	}
	rest := fs.Args()
	// Flags may also follow the username.
	if len(rest) > 0 {
		if err := management.ParseFlags(fs, rest[1:]); err != nil {
			return err
		}
		rest = append(rest[:1:1], fs.Args()...)
	}
	db, err := env.DB()
	if err != nil {
		return &management.CommandError{Msg: err.Error()}
	}
	tokens := cfg
	tokens.DB = db
	if args[0] == "clearexpired" {
		if len(rest) != 0 {
			return &management.UsageError{Msg: "clearexpired takes no arguments"}
		}
		n, err := tokens.ClearExpired(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Deleted %d expired tokens.\n", n)
		return nil
	}
	if len(rest) == 0 {
		return &management.UsageError{Msg: "expected a USERNAME"}
	}
	u, err := (&auth.Users{DB: db}).GetByUsername(ctx, rest[0])
	if errors.Is(err, auth.ErrNotFound) {
		return &management.CommandError{Msg: fmt.Sprintf("user %s does not exist", rest[0])}
	}
	if err != nil {
		return err
	}
	switch args[0] {
	case "create":
		if len(rest) != 1 {
			return &management.UsageError{Msg: "create takes one USERNAME"}
		}
		key, tok, err := tokens.Create(ctx, u.ID, *name)
		switch {
		case errors.Is(err, ErrLimit):
			return &management.CommandError{Msg: msgLimit}
		case errors.Is(err, ErrName):
			return &management.UsageError{Msg: err.Error()}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Generated token %s for user %s (id %d, expires %s)\n", key, u.Username, tok.ID, expiry(tok))
	case "list":
		if len(rest) != 1 {
			return &management.UsageError{Msg: "list takes one USERNAME"}
		}
		toks, err := tokens.ForUser(ctx, u.ID)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tPREFIX\tNAME\tCREATED\tEXPIRES")
		for _, t := range toks {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", t.ID, t.Prefix, t.Name, t.Created.Format(time.RFC3339), expiry(t))
		}
		return w.Flush()
	case "revoke":
		if *all {
			if len(rest) != 1 {
				return &management.UsageError{Msg: "revoke --all takes one USERNAME and no ID"}
			}
			n, err := tokens.RevokeAll(ctx, u.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "Revoked %d tokens of user %s.\n", n, u.Username)
			return nil
		}
		if len(rest) < 2 {
			return &management.UsageError{Msg: "revoke takes a USERNAME and the IDs of its tokens, or --all"}
		}
		for _, s := range rest[1:] {
			id, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return &management.UsageError{Msg: fmt.Sprintf("token id %q is not a number", s)}
			}
			if err := tokens.Revoke(ctx, u.ID, id); errors.Is(err, ErrNotFound) {
				return &management.CommandError{Msg: fmt.Sprintf("user %s has no token %d", u.Username, id)}
			} else if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "Revoked token %d of user %s.\n", id, u.Username)
		}
	default:
		return &management.UsageError{Msg: "unknown subcommand " + strconv.Quote(args[0])}
	}
	return nil
}

// expiry is the token's expiry for people, "never" when it has none.
func expiry(t *Token) string {
	if t.Expiry == nil {
		return "never"
	}
	return t.Expiry.Format(time.RFC3339)
}
