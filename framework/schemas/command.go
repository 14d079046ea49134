package schemas

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/management"
)

// Command returns DRF's "generateschema [--format openapi|openapi-json]
// [--api-version V] [--title T] [--file F]": it prints the OpenAPI
// document of the generator that build returns (the whole API, or one
// version's routes), as YAML or JSON, to standard output or to F.
func Command(build func(ctx context.Context, env *management.Env) (*Generator, error)) management.Command {
	return management.Command{
		Name:  "generateschema",
		Usage: "[--format openapi|openapi-json] [--api-version V] [--title T] [--file F]",
		Help: "Prints the OpenAPI 3.1 document of the API.\n\n" +
			"  --format F       openapi (YAML, the default) or openapi-json\n" +
			"  --api-version V  the document of version V (default: the whole API)\n" +
			"  --title T        the document's title\n" +
			"  --file F         write to F instead of standard output",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			fs := flag.NewFlagSet("generateschema", flag.ContinueOnError)
			format := fs.String("format", "openapi", "")
			version := fs.String("api-version", "", "")
			title := fs.String("title", "", "")
			file := fs.String("file", "", "")
			if err := management.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return &management.UsageError{Msg: "unexpected argument " + fs.Arg(0)}
			}
			var render func(any, *framework.RenderContext) ([]byte, error)
			switch *format {
			case "openapi":
				render = OpenAPIRenderer{}.Render
			case "openapi-json":
				render = JSONOpenAPIRenderer{}.Render
			default:
				return &management.UsageError{Msg: fmt.Sprintf("unknown format %q: use openapi or openapi-json", *format)}
			}
			gen, err := build(ctx, env)
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			if *version != "" && !slices.Contains(gen.Versions(), *version) {
				return &management.CommandError{Msg: fmt.Sprintf("unknown API version %q; the API has %v", *version, gen.Versions())}
			}
			g := *gen
			g.Info.Title = cmp.Or(*title, g.Info.Title)
			doc, err := g.Document(*version)
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			out, err := render(doc, nil)
			if err != nil {
				return err
			}
			if *file != "" {
				if err := os.WriteFile(*file, out, 0o644); err != nil {
					return &management.CommandError{Msg: err.Error()}
				}
				return nil
			}
			_, err = env.Stdout.Write(out)
			return err
		},
	}
}
