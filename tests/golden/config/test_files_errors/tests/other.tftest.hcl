run "other" {
  module {
    source  = "./local"
    version = "1.0"
  }
}

mock_provider "test" {
  alias  = "missing"
  source = "./no-such-dir"
}
