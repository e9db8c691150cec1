# Module source addresses as Terraform parses them: registry addresses
# (tfaddr.ParseModuleSource) when a version is given, and otherwise local,
# registry or remote (go-getter) addresses.

module "v0" {
  source  = "./local"
  version = "1.0.0"
}

module "v1" {
  source  = "a/b"
  version = "1.0.0"
}

module "v2" {
  source  = "example.com/a/b/c/d"
  version = "1.0.0"
}

module "v3" {
  source  = "xn--abc.com/ns/name/aws"
  version = "1.0.0"
}

module "v4" {
  source  = "exa_mple.com/ns/n/aws"
  version = "1.0.0"
}

module "v5" {
  source  = "localhost/ns/n/aws"
  version = "1.0.0"
}

module "v6" {
  source  = "github.com/ns/n/aws"
  version = "1.0.0"
}

module "v7" {
  source  = "example.com/a_/n/aws"
  version = "1.0.0"
}

module "v8" {
  source  = "example.com/ns/-n/aws"
  version = "1.0.0"
}

module "v9" {
  source  = "ns/n/AWS"
  version = "1.0.0"
}

module "v10" {
  source  = "ns/n/aws?ref=1"
  version = "1.0.0"
}

module "v11" {
  source  = "ns/n/aws//../x"
  version = "1.0.0"
}

module "v12" {
  source  = "git.example.com/ns/n"
  version = "1.0.0"
}

module "v13" {
  source  = "Example.com:443/ns/n/aws//sub/../dir"
  version = "1.0.0"
}

module "r0" {
  source = "foo/bar"
}

module "r1" {
  source = "foo/bar//sub"
}

module "r2" {
  source = "github.com/x/y//../z"
}

module "r3" {
  source = "foo/bar?x=1//sub"
}

module "r4" {
  source = "ns/n/aws//a/../../b"
}
