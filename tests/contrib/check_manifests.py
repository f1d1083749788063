#!/usr/bin/env python3
"""Validates contrib/kubernetes/*.yaml without a cluster (`kubectl apply --dry-run=client`
needs an API server to map kinds): every document parses; every field name exists in the
Kubernetes API models where the official `kubernetes` Python client is importable (its
generated models carry the OpenAPI field names and types); and the rules the manifests
promise hold: the DaemonSet runs `tfgpu probe` on NVIDIA GPU nodes (nodeSelector and
toleration), with no privilege, no host namespace, every hostPath read-only; the Job runs
`tfgpu fleet` with read-only access to pods and their logs only.

  check_manifests.py REPO_ROOT
Exit 0 valid, 1 invalid (each problem printed), 77 skipped (no PyYAML)."""
import glob
import os
import sys

try:
    import yaml
except ImportError:
    print("SKIP: PyYAML (python3-yaml) is not installed")
    sys.exit(77)

problems = []


def problem(where, what):
    problems.append(f"{where}: {what}")


def check_model(where, value, type_name, models):
    """Recursively checks field names against the client's models (openapi_types)."""
    if value is None:
        return
    if type_name.startswith("list["):
        if not isinstance(value, list):
            return problem(where, f"expected a list ({type_name})")
        for i, v in enumerate(value):
            check_model(f"{where}[{i}]", v, type_name[5:-1], models)
        return
    if type_name.startswith("dict("):
        if not isinstance(value, dict):
            return problem(where, f"expected a map ({type_name})")
        inner = type_name[type_name.index(",") + 1:-1].strip()
        for k, v in value.items():
            check_model(f"{where}.{k}", v, inner, models)
        return
    cls = getattr(models, type_name, None)
    if cls is None:  # str, int, bool, object, datetime
        if type_name in ("str", "int", "bool") and isinstance(value, (dict, list)):
            problem(where, f"expected {type_name}")
        return
    if not isinstance(value, dict):
        return problem(where, f"expected an object ({type_name})")
    fields = {json_name: attr for attr, json_name in cls.attribute_map.items()}
    for k, v in value.items():
        if k not in fields:
            problem(where, f"unknown field '{k}' in {type_name}")
            continue
        check_model(f"{where}.{k}", v, cls.openapi_types[fields[k]], models)


KIND_MODELS = {
    ("v1", "Namespace"): "V1Namespace",
    ("v1", "ServiceAccount"): "V1ServiceAccount",
    ("apps/v1", "DaemonSet"): "V1DaemonSet",
    ("batch/v1", "Job"): "V1Job",
    ("rbac.authorization.k8s.io/v1", "Role"): "V1Role",
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): "V1RoleBinding",
}


def check_pod(where, pod):
    spec = pod.get("spec", {})
    for host in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(host):
            problem(where, f"{host} is set")
    sc = spec.get("securityContext", {})
    if not sc.get("runAsNonRoot"):
        problem(where, "pod securityContext.runAsNonRoot is not true")
    host_paths = {v["name"] for v in spec.get("volumes", []) if "hostPath" in v}
    for c in spec.get("initContainers", []) + spec.get("containers", []):
        cw = f"{where} container {c.get('name')}"
        csc = c.get("securityContext", {})
        if csc.get("privileged"):
            problem(cw, "privileged")
        if csc.get("allowPrivilegeEscalation") is not False:
            problem(cw, "allowPrivilegeEscalation is not false")
        caps = csc.get("capabilities", {})
        if "ALL" not in caps.get("drop", []):
            problem(cw, "capabilities do not drop ALL")
        if caps.get("add"):
            problem(cw, f"adds capabilities {caps['add']}")
        if csc.get("readOnlyRootFilesystem") is not True:
            problem(cw, "root file system is writable")
        for m in c.get("volumeMounts", []):
            if m["name"] in host_paths and not m.get("readOnly"):
                problem(cw, f"hostPath volume {m['name']} is mounted writable")
    return spec


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    try:
        from kubernetes.client import models
    except ImportError:
        models = None
        print("note: the `kubernetes` Python client is not installed: field names are not checked against the API models")
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "contrib/kubernetes/*.yaml"))):
        try:
            for i, d in enumerate(yaml.safe_load_all(open(path))):
                if d is not None:
                    docs.append((f"{os.path.basename(path)}#{i}", d))
        except yaml.YAMLError as e:
            problem(path, f"YAML: {e}")
    if not docs:
        problem(root, "no manifest in contrib/kubernetes")
    by_kind = {}
    for where, d in docs:
        for key in ("apiVersion", "kind", "metadata"):
            if key not in d:
                problem(where, f"no {key}")
        where = f"{where} ({d.get('kind')} {d.get('metadata', {}).get('name')})"
        by_kind.setdefault(d.get("kind"), []).append((where, d))
        model = KIND_MODELS.get((d.get("apiVersion"), d.get("kind")))
        if model is None:
            problem(where, f"unexpected apiVersion/kind {d.get('apiVersion')}/{d.get('kind')}")
        elif models is not None:
            check_model(where, {k: v for k, v in d.items()}, model, models)

    daemonsets = by_kind.get("DaemonSet", [])
    if len(daemonsets) != 1:
        problem("contrib/kubernetes", f"{len(daemonsets)} DaemonSets, expected 1")
    for where, d in daemonsets:
        spec = check_pod(where, d["spec"]["template"])
        if not any("nvidia.com/gpu" in k for k in spec.get("nodeSelector", {})):
            problem(where, "no nodeSelector for NVIDIA GPU nodes")
        if not any(t.get("key") == "nvidia.com/gpu" for t in spec.get("tolerations", [])):
            problem(where, "no toleration of the nvidia.com/gpu taint")
        commands = " ".join(" ".join(c.get("command", []) + c.get("args", [])) for c in spec["containers"])
        if "tfgpu probe --json" not in commands:
            problem(where, "does not run `tfgpu probe --json`")
        for c in spec["containers"]:
            if (c.get("resources", {}).get("limits", {}) or {}).get("nvidia.com/gpu"):
                problem(where, "requests a GPU (it would take one from workloads)")
        if d["spec"]["selector"]["matchLabels"].items() - d["spec"]["template"]["metadata"]["labels"].items():
            problem(where, "selector does not match the template's labels")

    jobs = by_kind.get("Job", [])
    if len(jobs) != 1:
        problem("contrib/kubernetes", f"{len(jobs)} Jobs, expected 1")
    for where, d in jobs:
        spec = check_pod(where, d["spec"]["template"])
        if spec.get("restartPolicy") not in ("Never", "OnFailure"):
            problem(where, "a Job's restartPolicy must be Never or OnFailure")
        commands = [c.get("command", []) for c in spec["containers"]]
        if not any(cmd[:2] == ["tfgpu", "fleet"] for cmd in commands):
            problem(where, "does not run `tfgpu fleet`")
        sa = spec.get("serviceAccountName")
        if sa not in [x.get("metadata", {}).get("name") for _, x in by_kind.get("ServiceAccount", [])]:
            problem(where, f"service account {sa} is not defined")

    for where, d in by_kind.get("Role", []):
        for rule in d.get("rules", []):
            if set(rule.get("verbs", [])) - {"get", "list", "watch"}:
                problem(where, f"a verb beyond reading: {rule['verbs']}")
            if set(rule.get("resources", [])) - {"pods", "pods/log"}:
                problem(where, f"resources beyond pods and their logs: {rule['resources']}")
    for where, d in by_kind.get("RoleBinding", []):
        if d["roleRef"]["kind"] != "Role":
            problem(where, "binds a ClusterRole")

    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"contrib/kubernetes: {len(docs)} manifests valid"
          + ("" if models is None else " (field names checked against the kubernetes client's API models)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
