"""``isa-ext spec --out DIR``: the instruction set as a static HTML site plus spec.md."""
import os


def register(sub):
    p = sub.add_parser("spec", help="render the instruction set as HTML and Markdown",
                       description="Write DIR/index.html, DIR/insn/*.html (encoding diagram, "
                       "syntax, pseudocode, registers, SVP64 category, errata, tests), "
                       "DIR/po22.html (primary opcode 22 map) and DIR/spec.md.")
    p.add_argument("--out", default="site", metavar="DIR", help="output directory (default: site)")
    p.add_argument("--spec-root", metavar="DIR",
                   help="render DIR/decoder and DIR/pseudocode instead of the project's spec")
    p.set_defaults(func=run)


def run(args):
    from ..isa import ISA
    from ..spec.render import write_site
    isa = ISA(root=args.spec_root)
    # errata and tests are looked up beside the spec data (a checkout's root);
    # an installed package has neither, and the site says so
    infos = write_site(isa, args.out, isa.spec.project_dir)
    isa.save_cache()
    print(f"spec: {len(infos)} instructions written to {os.path.join(args.out, 'index.html')} "
          f"and {os.path.join(args.out, 'spec.md')}")
    return 0
