#!/usr/bin/env python3
"""A seeded generator of expressions of ordinary shapes, for the general case.

    python3 bench/gen_expressions.py --out DIR [--seed 31] [--per-category 30]

Writes DIR/expressions.txt (the format of the shared bench/expressions.txt:
NAME EXPRESSION per line, the name starting with its category),
DIR/vars.json (the variables they read), and for each category and for
all of them a file of attributes NAME = EXPRESSION (DIR/CATEGORY.hcl,
DIR/all.hcl), which `hclvm bench FILE` and bench/instructions.sh measure
as a whole. The same seed gives the same
files. Every expression uses only functions that both hclvm and the
reference's gohcl-bench have (go-cty's standard library), and evaluates
without errors (bench/compare_general.py checks that both agree).

Categories: cond (nested conditionals over numbers, integers and
fractions, strings and bools), bool (chains of && and || with
comparisons), cmp (comparisons), arith (arithmetic, integers and
fractions), forlist (for over lists and maps producing tuples), forobj
(for producing objects, with if and grouping, over lists of objects),
cons (object and tuple construction), tmpl (templates with
interpolations, directives and calls), call (nested calls: string,
collection, numeric, encoding), splat (splats and the results of
splats), index (index and attribute chains), try (try and can).
"""
import argparse
import json
import random
from pathlib import Path

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
ENVS = ["dev", "staging", "prod"]


def variables(rnd):
    """The variables: numbers, strings, bools, lists, maps, objects."""
    objs = []
    for i in range(24):
        objs.append({
            "name": "svc-%02d" % i,
            "port": 8000 + rnd.randrange(100),
            "enabled": rnd.random() < 0.6,
            "weight": round(rnd.random() * 10, 3),
            "env": rnd.choice(ENVS),
            "tags": {"team": rnd.choice(WORDS), "tier": rnd.choice(["web", "db", "cache"])},
            "zones": [rnd.choice(["a", "b", "c"]) for _ in range(rnd.randrange(1, 4))],
        })
    return {
        "n": 42, "m": 7, "k": -3,
        "x": 3.75, "y": -2.5, "z": 0.125, "big": 123456789,
        "s": "hello world", "name": "web-01", "region": "eu-west-1", "empty": "",
        "flag": True, "off": False,
        "nums": [rnd.randrange(-50, 100) for _ in range(30)],
        "fracs": [round(rnd.uniform(-10, 10), 3) for _ in range(20)],
        "strs": [rnd.choice(WORDS) + str(rnd.randrange(10)) for _ in range(20)],
        "tags": {"k%d" % i: rnd.choice(WORDS) for i in range(12)},
        "limits": {"k%d" % i: rnd.randrange(1, 500) for i in range(12)},
        "objs": objs,
        "cfg": {"db": {"host": "db.internal", "port": 5432, "replicas": [{"zone": z, "size": i + 1}
                                                                         for i, z in enumerate("abc")]},
                "web": {"hosts": ["w1", "w2", "w3"], "tls": {"enabled": True, "min": "1.2"}}},
    }


class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def pick(self, xs):
        return self.r.choice(xs)

    # Operands.
    def num(self):
        return self.pick(["n", "m", "k", "x", "y", "z", "big", "nums[%d]" % self.r.randrange(30),
                          "fracs[%d]" % self.r.randrange(20), str(self.r.randrange(100)),
                          "%.2f" % self.r.uniform(-5, 5), "limits[\"k%d\"]" % self.r.randrange(12),
                          "objs[%d].weight" % self.r.randrange(24), "objs[%d].port" % self.r.randrange(24)])

    def string(self):
        return self.pick(["s", "name", "region", "strs[%d]" % self.r.randrange(20),
                          "tags[\"k%d\"]" % self.r.randrange(12), "objs[%d].name" % self.r.randrange(24),
                          "objs[%d].env" % self.r.randrange(24), "\"%s\"" % self.pick(WORDS + ENVS)])

    def boolean(self):
        return self.pick(["flag", "off", "objs[%d].enabled" % self.r.randrange(24),
                          "cfg.web.tls.enabled"])

    def cmp(self):
        kind = self.r.randrange(3)
        if kind == 0:
            return "%s %s %s" % (self.num(), self.pick(["<", "<=", ">", ">=", "==", "!="]), self.num())
        if kind == 1:
            return "%s %s %s" % (self.string(), self.pick(["==", "!="]), self.string())
        return "%s %s %s" % (self.boolean(), self.pick(["==", "!="]), self.boolean())

    def arith(self, depth=2):
        if depth == 0 or self.r.random() < 0.3:
            return self.num()
        op = self.pick(["+", "-", "*", "/", "+", "*"])
        rhs = self.arith(depth - 1)
        if op == "/":
            rhs = "(%s + 1000)" % rhs  # never zero: the operands are small
        e = "%s %s %s" % (self.arith(depth - 1), op, rhs)
        return "(%s)" % e if self.r.random() < 0.5 else e

    def bool_chain(self):
        parts = [self.cmp() for _ in range(self.r.randrange(2, 6))]
        e = parts[0]
        for p in parts[1:]:
            e = "%s %s %s" % (e, self.pick(["&&", "||"]), "!(%s)" % p if self.r.random() < 0.2 else p)
        return e

    def cond(self, depth=None):
        depth = self.r.randrange(1, 4) if depth is None else depth
        kind = self.r.randrange(3)
        leaf = [self.num, self.string, self.boolean][kind]
        e = leaf()
        for _ in range(depth):
            e = "%s ? %s : %s" % (self.cmp(), leaf(), e)
        return e

    def forlist(self):
        return self.pick([
            "[for v in nums : v * %d if v %% %d == 0]" % (self.r.randrange(2, 5), self.r.randrange(2, 4)),
            "[for v in fracs : v + x if v > %s]" % self.num(),
            "[for i, v in strs : \"${i}-${v}\" if length(v) > %d]" % self.r.randrange(3, 7),
            "[for k, v in tags : upper(v) if k != \"k%d\"]" % self.r.randrange(12),
            "[for k, v in limits : v * 2 if v > %d]" % self.r.randrange(100, 400),
            "[for o in objs : o.port if o.enabled]",
            "[for o in objs : o.weight * %s]" % self.num(),
            "[for o in objs : o.name if o.env == \"%s\" && o.port > %d]" % (self.pick(ENVS), self.r.randrange(8000, 8100)),
        ])

    def forobj(self):
        return self.pick([
            "{for o in objs : o.name => o.port if o.enabled}",
            "{for o in objs : o.name => {port = o.port, env = o.env} if o.weight > %s}" % self.num(),
            "{for o in objs : o.env => o.name...}",
            "{for o in objs : o.tags.team => o.port... if o.enabled}",
            "{for k, v in tags : v => k...}",
            "{for k, v in limits : k => v * %d if v %% 2 == 0}" % self.r.randrange(2, 9),
            "{for i, v in strs : \"${i}-${v}\" => i}",
            "{for o in objs : \"${o.env}-${o.name}\" => o.weight if o.port %% %d != 0}" % self.r.randrange(2, 5),
        ])

    def cons(self):
        return self.pick([
            "{name = %s, port = %s, on = %s}" % (self.string(), self.num(), self.boolean()),
            "[%s, %s, %s, %s]" % (self.num(), self.num(), self.num(), self.num()),
            "[%s, %s, %s]" % (self.string(), self.string(), self.string()),
            "{a = {b = [%s, %s], c = %s}, d = [%s]}" % (self.num(), self.num(), self.string(), self.boolean()),
            "{(%s) = %s, (%s) = %s}" % (self.string(), self.num(), "\"k-${%s}\"" % self.num(), self.boolean()),
            "[{n = %s}, {n = %s}, {n = %s}]" % (self.num(), self.num(), self.num()),
        ])

    def tmpl(self):
        return self.pick([
            "\"${%s}-${%s}-${%s}\"" % (self.string(), self.num(), self.boolean()),
            "\"%%{if %s}on%%{else}off%%{endif}:${%s}\"" % (self.cmp(), self.string()),
            "\"%{for v in strs}${upper(v)},%{endfor}\"",
            "\"%{for o in objs}%{if o.enabled}${o.name}:${o.port};%{endif}%{endfor}\"",
            "\"${format(\"%%s-%%03d\", %s, %d)}.${lower(%s)}\"" % (self.string(), self.r.randrange(1000), self.string()),
            "\"prefix ${join(\",\", [for v in nums : tostring(v) if v > %d])} suffix\"" % self.r.randrange(0, 60),
            "\"${%s} is ${%s > %s ? \"big\" : \"small\"}\"" % (self.string(), self.num(), self.num()),
        ])

    def call(self):
        return self.pick([
            "upper(join(\"-\", [for v in strs : lower(v)]))",
            "length(keys(merge(tags, {extra = %s})))" % self.string(),
            "lookup(merge(tags, {k99 = %s}), \"k%d\", \"none\")" % (self.string(), self.r.randrange(14)),
            "max(nums...) - min(nums...)",
            "max(%s, %s, %s)" % (self.num(), self.num(), self.num()),
            "jsonencode({a = %s, b = [%s, %s]})" % (self.string(), self.num(), self.num()),
            "jsondecode(jsonencode(objs[%d]))" % self.r.randrange(24),
            "replace(substr(%s, 0, 5), \"l\", \"L\")" % self.string(),
            "split(\",\", join(\",\", slice(strs, 0, %d)))" % self.r.randrange(2, 15),
            "sort(distinct(concat(strs, values(tags))))",
            "format(\"%%s/%%d/%%.2f\", %s, %d, %s)" % (self.string(), self.r.randrange(100), self.num()),
            "coalesce(empty, %s)" % self.string(),
            "flatten([for o in objs : o.zones])",
            "abs(%s) + ceil(%s) + floor(%s)" % (self.num(), self.num(), self.num()),
            "contains(strs, %s)" % self.string(),
            "zipmap(slice(strs, 0, 5), slice(nums, 0, 5))",
            "trimspace(title(\"  ${%s}  \"))" % self.string(),
            "element(reverse(nums), %d)" % self.r.randrange(30),
            "parseint(\"%d\", 10) + tonumber(\"%d\")" % (self.r.randrange(1000), self.r.randrange(1000)),
            "regex(\"[a-z]+\", %s)" % self.string(),
        ])

    def splat(self):
        return self.pick([
            "objs[*].name",
            "objs[*].tags.team",
            "length(objs[*].zones)",
            "[for p in objs[*].port : p + 1]",
            "cfg.db.replicas[*].size",
            "max(objs[*].port...)",
            "join(\",\", objs[*].env)",
            "objs.*.weight",
            "[for p in objs[*].port : p + %d if p > %d]" % (self.r.randrange(10), self.r.randrange(8000, 8100)),
            "objs[%d].zones[*]" % self.r.randrange(24),
            "length([for z in objs[*].zones : z if length(z) > %d])" % self.r.randrange(1, 3),
            "distinct(objs[*].tags.tier)",
            "cfg.web.hosts[*]",
            "[for w in objs[*].weight : w * %s]" % self.num(),
        ])

    def index(self):
        return self.pick([
            "cfg.db.replicas[%d].zone" % self.r.randrange(3),
            "cfg[\"web\"][\"tls\"].min",
            "cfg.web.hosts[%d]" % self.r.randrange(3),
            "objs[%d].tags[\"tier\"]" % self.r.randrange(24),
            "objs[%d].zones[0]" % self.r.randrange(24),
            "tags[\"k%d\"]" % self.r.randrange(12),
            "limits[\"k%d\"] + limits[\"k%d\"]" % (self.r.randrange(12), self.r.randrange(12)),
            "nums[%d] * fracs[%d]" % (self.r.randrange(30), self.r.randrange(20)),
        ])

    def try_(self):
        return self.pick([
            "try(cfg.db.missing, \"default\")",
            "try(objs[%d].tags.team, \"none\")" % self.r.randrange(40),
            "can(cfg.web.tls.min)",
            "can(tonumber(%s))" % self.string(),
            "try(tonumber(%s), %s)" % (self.string(), self.num()),
            "try(lookup(limits, \"k%d\"), 0)" % self.r.randrange(20),
            "can(regex(\"^[0-9]+$\", %s))" % self.string(),
            "try(nums[%d], -1)" % self.r.randrange(40),
        ])


CATEGORIES = [
    ("cond", lambda g: g.cond()),
    ("bool", lambda g: g.bool_chain()),
    ("cmp", lambda g: g.cmp()),
    ("arith", lambda g: g.arith(g.r.randrange(1, 4))),
    ("forlist", lambda g: g.forlist()),
    ("forobj", lambda g: g.forobj()),
    ("cons", lambda g: g.cons()),
    ("tmpl", lambda g: g.tmpl()),
    ("call", lambda g: g.call()),
    ("splat", lambda g: g.splat()),
    ("index", lambda g: g.index()),
    ("try", lambda g: g.try_()),
]


def generate(seed, per_category):
    """The (name, expression) pairs and the variables for [seed]."""
    rnd = random.Random(seed)
    vars_ = variables(rnd)
    g = Gen(rnd)
    out = []
    for cat, make in CATEGORIES:
        seen = set()
        tries = 0
        while sum(1 for n, _ in out if n.startswith(cat + "_")) < per_category and tries < per_category * 50:
            tries += 1
            e = make(g)
            if e in seen:
                continue
            seen.add(e)
            out.append(("%s_%02d" % (cat, len(seen)), e))
    return out, vars_


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="directory to write expressions.txt and vars.json into")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--per-category", type=int, default=30)
    args = ap.parse_args()
    exprs, vars_ = generate(args.seed, args.per_category)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# Generated by bench/gen_expressions.py --seed %d --per-category %d: do not edit."
             % (args.seed, args.per_category)]
    lines += ["%-12s %s" % (n, e) for n, e in exprs]
    (out / "expressions.txt").write_text("\n".join(lines) + "\n")
    (out / "vars.json").write_text(json.dumps(vars_, indent=1) + "\n")
    head = lines[0] + "\n"
    for cat, _ in CATEGORIES:
        attrs = ["%s = %s" % (n, e) for n, e in exprs if n.split("_")[0] == cat]
        (out / (cat + ".hcl")).write_text(head + "\n".join(attrs) + "\n")
    (out / "all.hcl").write_text(head + "\n".join("%s = %s" % (n, e) for n, e in exprs) + "\n")
    print("%d expressions in %d categories -> %s" % (len(exprs), len(CATEGORIES), out))


if __name__ == "__main__":
    main()
