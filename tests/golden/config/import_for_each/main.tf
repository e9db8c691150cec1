# Import blocks with for_each as validate checks them: the for_each value
# evaluated (an unknown one checks nothing), then for each element the key
# of `to` against the resource's count or for_each, and the id. A target no
# resource block declares is a vertex of its own: what refers to it waits
# for it, and is not checked when it fails.
variable "v" {
  default = "x"
}

variable "unknown" {
  type = map(string)
}

locals {
  m = { a = "1", b = "2" }
  s = toset(["a", "b"])
}

resource "terraform_data" "each" {
  for_each = local.s
}

resource "terraform_data" "counted" {
  count = 2
}

resource "terraform_data" "plain" {
}

import {
  for_each = local.m
  to       = terraform_data.each[each.key]
  id       = "id-${each.value}"
}

import {
  for_each = local.s
  to       = terraform_data.counted[each.key]
  id       = each.key
}

import {
  for_each = ["a", "b"]
  to       = terraform_data.plain[each.key]
  id       = each.value
}

import {
  for_each = var.unknown
  to       = terraform_data.plain[each.key]
  id       = each.value
}

import {
  for_each = "str"
  to       = terraform_data.gone[each.key]
  id       = "x"
}

import {
  for_each = { k = "" }
  to       = terraform_data.missing[each.key]
  id       = each.value
}

import {
  for_each = local.m
  to       = terraform_data.other[local.nope]
  id       = "x"
}

resource "terraform_data" "waits" {
  input = terraform_data.missing
}
