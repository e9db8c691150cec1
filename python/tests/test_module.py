"""hclvm.Module: a Terraform module directory evaluated."""

import json
import os

import pytest

import hclvm

DIR = os.path.join(os.path.dirname(__file__), "data", "module")


def test_module_evaluate():
    m = hclvm.Module(DIR)
    assert m.language == "terraform"
    assert m.variable_names == ["ports", "region", "secret"]
    assert m.output_names == ["name", "secret", "urls"]
    e = m.evaluate({"region": "us-east-1"})
    assert e.outputs["name"] == "web-us-east-1"
    assert e.outputs["urls"] == ["http://web-us-east-1:80"]
    assert e.outputs["secret"] == hclvm.Marked("hunter2", frozenset({"sensitive"}))
    assert e.locals["count"] == 1
    assert e.variables["ports"] == [80]
    assert e.eval("upper(local.name)") == "WEB-US-EAST-1"
    assert e.eval("var.secret", unmark=True) == "hunter2"
    assert isinstance(e.instances["aws_instance.web[0]"], dict)
    assert json.loads(e.to_json())["outputs"]["name"]["value"] == "web-us-east-1"


def test_module_default_and_errors():
    m = hclvm.Module(DIR)
    assert m.evaluate().outputs["name"] == "web-eu-west-1"
    with pytest.raises(hclvm.HCLError) as e:
        m.evaluate({"ports": "not a list"})
    assert "Invalid value for input variable" in str(e.value) or e.value.diagnostics


def test_module_missing():
    with pytest.raises(hclvm.HCLError):
        hclvm.Module(os.path.join(DIR, "nope"))


def test_module_inputs_in_terraform_order():
    m = hclvm.Module(DIR)
    var_file = os.path.join(os.path.dirname(DIR), "varfiles", "prod.tfvars")
    assert m.evaluate(var_files=[var_file]).outputs["name"] == "web-prod-1"
    assert m.evaluate(env={"TF_VAR_region": "env-1"}).outputs["name"] == "web-env-1"
    # -var-file beats the environment; values given from Python beat both.
    e = m.evaluate({"region": "py-1"}, var_files=[var_file], env={"TF_VAR_region": "env-1"})
    assert e.outputs["name"] == "web-py-1"
    assert m.evaluate(var_files=[var_file], env={"TF_VAR_region": "env-1"}).outputs["name"] == "web-prod-1"
    assert m.evaluate(workspace="staging").eval("terraform.workspace") == "staging"


def test_module_reevaluate():
    m = hclvm.Module(DIR)
    first = m.evaluate({"region": "us-east-1"})
    again = m.evaluate({"region": "eu-west-1"}, previous=first)
    fresh = m.evaluate({"region": "eu-west-1"})
    assert again.outputs == fresh.outputs
    assert again.outputs["name"] == "web-eu-west-1"
    assert json.loads(again.to_json()) == json.loads(fresh.to_json())
    same = m.evaluate({"region": "eu-west-1"}, previous=again)
    assert same.to_json() == fresh.to_json()
    other = hclvm.Module(os.path.join(os.path.dirname(__file__), "data", "module"))
    with pytest.raises(ValueError):
        other.evaluate({"region": "us-east-1"}, previous=first)
