package management

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
)

// Migrate returns the "migrate" command: it applies migs with
// migrations.Migrate and reports like Django ("Applying
// auth.0001_initial... OK", or "No migrations to apply."). They run
// Django 5.2's SQL, or Django 3.2's when $DRF_COMPAT is 3.14
// (migrations.WithCompatibility). --noinput is accepted and ignored.
func Migrate(migs ...migrations.Migration) Command {
	return Command{
		Name:  "migrate",
		Usage: "[--noinput]",
		Help:  "Updates the database schema: applies the migrations it does not record yet.",
		Run: func(ctx context.Context, env *Env, args []string) error {
			fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
			fs.Bool("noinput", false, "")
			fs.Bool("no-input", false, "")
			if err := ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return &UsageError{Msg: "unexpected argument " + fs.Arg(0)}
			}
			level, err := compat.Parse(env.Var(compat.Env))
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			ctx = migrations.WithCompatibility(ctx, level)
			db, err := env.DB()
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			var apps []string
			for _, m := range migs {
				if !slices.Contains(apps, m.App) {
					apps = append(apps, m.App)
				}
			}
			slices.Sort(apps)
			if len(apps) == 0 {
				apps = []string{"(none)"}
			}
			fmt.Fprintf(env.Stdout, "Operations to perform:\n  Apply all migrations: %s\nRunning migrations:\n", strings.Join(apps, ", "))
			applied, err := migrations.Migrate(ctx, db, migs...)
			for _, name := range applied {
				fmt.Fprintf(env.Stdout, "  Applying %s... OK\n", name)
			}
			if err != nil {
				var me *migrations.MigrationError
				if errors.As(err, &me) {
					fmt.Fprintf(env.Stdout, "  Applying %s... FAILED\n", me.Migration)
				}
				return &CommandError{Msg: err.Error()}
			}
			if len(applied) == 0 {
				fmt.Fprintln(env.Stdout, "  No migrations to apply.")
			}
			return nil
		},
	}
}
