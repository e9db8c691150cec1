# required_providers entries as decodeRequiredProvidersBlock reads them:
# configuration_aliases are references, not values to evaluate.
terraform {
  required_providers {
    terraform = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [terraform.a, terraform.b[0], other.c, terraform]
    }
    aws-bad- = "1.0"
    Bad = {
      source = "x/bad"
    }
    okay = {
      version = 1
      source  = 2
    }
    sub = {
      bogus = 1
    }
    listy = [1]
  }
}
