# Provider source addresses as addrs.ParseProviderSourceString reads them.
terraform {
  required_providers {
    a = { source = "foo/terraform-provider-foo" }
    b = { source = "registry.terraform.io/foo/terraform-foo" }
    c = { source = "example.com/foo/terraform-provider-bar" }
    d = { source = "a/b/c/d" }
    e = { source = "foo//bar" }
    f = { source = "foo/Bar_baz" }
    g = { source = "foo_bar/baz" }
    h = { source = "xn--abc.com/foo/bar" }
    i = { source = "exa_mple.com/foo/bar" }
    j = { source = "example.com:99999/foo/bar" }
    k = { source = "https://example.com/foo/bar" }
    l = { source = "example..com/foo/bar" }
    m = { source = "-example.com/foo/bar" }
    n = { source = "-/n" }
    o = { source = "example.com/-/o" }
    p = { source = "" }
    q = { source = "example.com:x/foo/bar" }
    r = { source = "foo/terraform-provider-" }
    s = { source = "foo/bar--baz" }
    t = { source = "Example.COM:443/Foo/T" }
  }
}
