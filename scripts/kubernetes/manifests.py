# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Rendered Kubernetes YAML (`kubectl kustomize`), checked offline and turned into what podman plays.

    manifests.py check RENDERED.yaml HELP_DIR         exit 1, naming object, field and reason, if a check fails
    manifests.py podman RENDERED.yaml PREFIX           a StatefulSet's pods as Deployments into PREFIX.play.yaml,
                                                       Jobs as Pods into PREFIX.harness.play.yaml

`check` holds every object to the models of the `kubernetes` Python client (its version is printed): each
field must be one the model has, of the model's type, and every required field present. That catches a
misspelled or misplaced field, a string where a number goes, a missing container name. Beyond the
schema, what a cluster would refuse or silently mis-wire: a selector its template's labels do not match, a
StatefulSet whose serviceName is no headless Service selecting its pods, a Service whose pods lack its
named target port, a probe naming a port the container does not have, a pod that Pod Security's
"restricted" level would refuse, a Multus network that is not defined here. And ssdp-sim's own wiring,
read from HELP_DIR (`ssdp-sim serve --help` as serve.txt, `search --help` as search.txt, `profiles` as
profiles.txt): an SSDP_SIM_* variable serve has no option for, a profile it does not have, an argument
the subcommand does not take, a harness whose --expect-count is not the devices' number (the replicas
times SSDP_SIM_COUNT, or the devices of the file SSDP_SIM_DEVICES names, of every StatefulSet); a
configMap volume whose ConfigMap is not in the rendering, and an SSDP_SIM_DEVICES that is no key of a
mounted ConfigMap or whose file is no device file (JSON with a list of devices). Objects of kinds the client does not model (Multus's
NetworkAttachmentDefinition) get their own small check. Nothing here runs admission, scheduling or a CNI:
that takes a cluster.
"""

import json
import re
import sys

import yaml


def documents(path):
    with open(path) as file:
        return [document for document in yaml.safe_load_all(file) if document]


def name_of(document):
    return f"{document.get('kind')} {document.get('metadata', {}).get('name')}"


class SchemaCheck:
    """Walks a document beside the client's model of its kind."""

    def __init__(self):
        import kubernetes.client

        self.models = kubernetes.client
        self.api = kubernetes.client.ApiClient()

    def model_of(self, document):
        version = document.get("apiVersion", "").split("/")[-1]
        return f"{version[:1].upper()}{version[1:]}{document.get('kind', '')}"

    def errors(self, document):
        model = self.model_of(document)
        if not hasattr(self.models, model):
            return None
        found = []
        self.walk(document, model, document.get("kind", ""), found)
        if not found:
            try:  # the models' own constructors refuse a missing required field
                self.api._ApiClient__deserialize(document, model)
            except (ValueError, TypeError) as error:
                found.append(" ".join(str(error).split()[:12]))
        return found

    def walk(self, value, type_name, path, found):
        if type_name in ("object", "datetime", "date"):
            return
        simple = {"str": str, "bytes": str, "bool": bool, "float": (int, float)}
        if type_name in simple:
            if not isinstance(value, simple[type_name]) or (type_name == "float" and isinstance(value, bool)):
                found.append(f"{path}: expected {type_name}, got {type(value).__name__} {value!r}")
            return
        if type_name == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                found.append(f"{path}: expected int, got {type(value).__name__} {value!r}")
            return
        if type_name.lower().startswith("list["):
            if not isinstance(value, list):
                found.append(f"{path}: expected a list, got {type(value).__name__}")
                return
            for index, item in enumerate(value):
                self.walk(item, type_name[5:-1], f"{path}[{index}]", found)
            return
        if type_name.lower().startswith(("dict(", "dict[")):
            if not isinstance(value, dict):
                found.append(f"{path}: expected a map, got {type(value).__name__}")
                return
            inner = type_name[5:-1].split(", ", 1)[1]
            for key, item in value.items():
                self.walk(item, inner, f"{path}.{key}", found)
            return
        model = getattr(self.models, type_name)
        if not isinstance(value, dict):
            found.append(f"{path}: expected an object ({type_name}), got {type(value).__name__}")
            return
        fields = {json_name: attribute for attribute, json_name in model.attribute_map.items()}
        for key, item in value.items():
            if key not in fields:
                found.append(f"{path}.{key}: no such field in {type_name}")
            else:
                self.walk(item, model.openapi_types[fields[key]], f"{path}.{key}", found)


def network_attachment_errors(document):
    """Multus's NetworkAttachmentDefinition: spec.config must be a CNI configuration in JSON."""
    try:
        config = json.loads(document.get("spec", {}).get("config", ""))
    except json.JSONDecodeError as error:
        return [f"spec.config: not JSON: {error}"]
    return [f"spec.config.{key}: missing" for key in ("cniVersion", "type") if key not in config]


def pod_templates(documents):
    for document in documents:
        spec = document.get("spec", {})
        if document.get("kind") in ("StatefulSet", "Deployment", "Job", "DaemonSet"):
            yield document, spec.get("template", {})
        elif document.get("kind") == "Pod":
            yield document, document


def labels_match(selector, labels):
    return all(labels.get(key) == value for key, value in selector.items())


def restricted_errors(spec):
    """What Pod Security's "restricted" level refuses, for the fields these pods set."""
    found = []
    if spec.get("hostNetwork") or spec.get("hostPID") or spec.get("hostIPC"):
        found.append("a host namespace")
    if any("hostPath" in volume for volume in spec.get("volumes", [])):
        found.append("a hostPath volume")
    pod = spec.get("securityContext", {})
    for container in spec.get("containers", []) + spec.get("initContainers", []):
        own = container.get("securityContext", {})
        if not own.get("runAsNonRoot", pod.get("runAsNonRoot")):
            found.append(f"{container['name']}: runAsNonRoot is not true")
        if own.get("allowPrivilegeEscalation") is not False:
            found.append(f"{container['name']}: allowPrivilegeEscalation is not false")
        if "ALL" not in own.get("capabilities", {}).get("drop", []) or own.get("capabilities", {}).get("add"):
            found.append(f"{container['name']}: capabilities are not drop [ALL] alone")
        if own.get("privileged"):
            found.append(f"{container['name']}: privileged")
        seccomp = own.get("seccompProfile", pod.get("seccompProfile", {})).get("type")
        if seccomp not in ("RuntimeDefault", "Localhost"):
            found.append(f"{container['name']}: seccompProfile is {seccomp}, not RuntimeDefault")
    return found


def ssdp_sim_errors(name, container, helps, profiles):
    """An ssdp-sim container's variables and arguments, beside what the binary says it takes."""
    found = []
    args = container.get("args", [])
    subcommand = args[0] if args else "serve"
    for variable in container.get("env", []):
        variable_name = variable.get("name", "")
        if not variable_name.startswith("SSDP_SIM_"):
            continue
        option = "--" + variable_name.removeprefix("SSDP_SIM_").lower().replace("_", "-")
        if option not in helps["serve"]:
            found.append(f"{name}: env {variable_name}: serve has no option {option}")
        if variable_name == "SSDP_SIM_PROFILE" and variable.get("value") not in profiles:
            found.append(f"{name}: env SSDP_SIM_PROFILE: no profile {variable.get('value')!r}")
    if subcommand not in helps:
        found.append(f"{name}: args: subcommand {subcommand!r} is not one this check knows")
        return found
    for argument in args[1:]:
        if argument.startswith("--") and argument.split("=", 1)[0] not in helps[subcommand]:
            found.append(f"{name}: args: {subcommand} has no option {argument}")
    return found


def is_ssdp_sim(container):
    return container.get("image", "").split("/")[-1].startswith("ssdp-sim:")


def device_file(documents, spec, container):
    """The device file SSDP_SIM_DEVICES names, where this check can read it: None where the container has
    no SSDP_SIM_DEVICES; {"unread": True} where the file is not in a ConfigMap of the rendering (on a claim,
    in a custom image, or named by valueFrom); {"problem": why} where a ConfigMap's file is not there or is
    no device file; else {"file": (ConfigMap, key), "devices": the file's devices}."""
    variable = next((v for v in container.get("env", []) if v.get("name") == "SSDP_SIM_DEVICES"), None)
    if variable is None:
        return None
    path = variable.get("value")
    if path is None:
        return {"unread": True}
    directory, _, name = path.rpartition("/")
    mounts = [m for m in container.get("volumeMounts", []) if m.get("mountPath")]
    mount = next((m for m in mounts if m["mountPath"] == path and m.get("subPath")), None)  # the file alone
    if mount is None:
        mount = next((m for m in mounts if m["mountPath"].rstrip("/") == directory and not m.get("subPath")), None)
    volume = next((v for v in spec.get("volumes", []) if mount and v.get("name") == mount.get("name")), {})
    config_map = volume.get("configMap", {}).get("name")
    if config_map is None:
        return {"unread": True}
    key = mount.get("subPath") or name
    key = next((item.get("key") for item in volume["configMap"].get("items", []) if item.get("path") == key), key)
    data = next(((d.get("data") or {}) for d in documents
                 if d.get("kind") == "ConfigMap" and d.get("metadata", {}).get("name") == config_map), {})
    if key not in data:
        return {"problem": f"env SSDP_SIM_DEVICES {path}: ConfigMap {config_map} has no key {key!r}"}
    devices = devices_in(data[key])
    if isinstance(devices, str):
        return {"problem": f"env SSDP_SIM_DEVICES {path}: ConfigMap {config_map} {key}: {devices}"}
    return {"file": (config_map, key), "devices": devices}


def devices_in(text):
    """The devices of a device file (or a recording), or why it is not one."""
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as error:
        return f"not JSON: {error}"
    devices = parsed.get("devices") if isinstance(parsed, dict) else None
    if not isinstance(devices, list) or not devices or not all(isinstance(d, dict) for d in devices):
        return "not a device file: no list of devices"
    return devices


def device_pods(documents):
    """Each StatefulSet's replicas, its ssdp-sim container and the device file that container plays."""
    for document in documents:
        if document.get("kind") == "StatefulSet":
            spec = document.get("spec", {}).get("template", {}).get("spec", {})
            for container in filter(is_ssdp_sim, spec.get("containers", [])):
                yield document["spec"].get("replicas", 1), container, device_file(documents, spec, container)


def devices_started(pods):
    """Root devices the rendering starts (`pods`: device_pods's): each StatefulSet's replicas times its
    SSDP_SIM_COUNT, or times the devices of its device file (an entry stands for its count of them); None
    where a file cannot be read here."""
    total = 0
    for replicas, container, played in pods:
        if played is None:
            env = {v.get("name"): v.get("value") for v in container.get("env", [])}
            total += replicas * int(env.get("SSDP_SIM_COUNT") or 1)
        elif "devices" in played:
            counts = [device.get("count", 1) for device in played["devices"]]
            total += replicas * sum(count if isinstance(count, int) else 1 for count in counts)
        else:  # a file this check cannot read, or that is no device file (said on its own)
            return None
    return total


def fixed_udn_errors(pods):
    """A device file whose devices have UDNs of their own (a recording's always do) played by more than
    one pod (`pods`: device_pods's): every pod would advertise the same devices, which a control point
    takes for one each."""
    players, fixed = {}, {}
    for replicas, _, played in pods:
        if played and "devices" in played:
            players[played["file"]] = players.get(played["file"], 0) + replicas
            fixed[played["file"]] = sum(1 for device in played["devices"] if "udn" in device)
    return [f"ConfigMap {config_map} {key}: {fixed[(config_map, key)]} of its devices have a fixed UDN, and"
            f" {count} pods play them: every pod would be the same devices (play a recording in one pod)"
            for (config_map, key), count in players.items() if count > 1 and fixed[(config_map, key)]]


def wiring_errors(documents, helps, profiles):
    found = []
    services = {d["metadata"]["name"]: d for d in documents if d.get("kind") == "Service"}
    networks = {d["metadata"]["name"] for d in documents if d.get("kind") == "NetworkAttachmentDefinition"}
    templates = list(pod_templates(documents))
    config_maps = {d.get("metadata", {}).get("name") for d in documents if d.get("kind") == "ConfigMap"}
    pods = list(device_pods(documents))
    started = devices_started(pods)
    for document, template in templates:
        name = name_of(document)
        labels = template.get("metadata", {}).get("labels", {})
        selector = document.get("spec", {}).get("selector", {}).get("matchLabels")
        if selector is not None and not labels_match(selector, labels):
            found.append(f"{name}: spec.selector {selector} does not match the template's labels {labels}")
        if document.get("kind") == "StatefulSet":
            service = services.get(document["spec"].get("serviceName"), {}).get("spec", {})
            if service.get("clusterIP") != "None" or not labels_match(service.get("selector", {}), labels):
                found.append(f"{name}: spec.serviceName {document['spec'].get('serviceName')!r} is no headless"
                             " Service here that selects its pods")
        attached = template.get("metadata", {}).get("annotations", {}).get("k8s.v1.cni.cncf.io/networks")
        for network in (attached or "").split(","):
            if network.strip() and network.strip() not in networks:
                found.append(f"{name}: network {network.strip()!r} is no NetworkAttachmentDefinition here")
        spec = template.get("spec", {})
        found += [f"{name}: restricted: {reason}" for reason in restricted_errors(spec)]
        for volume in spec.get("volumes", []):
            wanted = volume.get("configMap", {})
            if wanted and not wanted.get("optional") and wanted.get("name") not in config_maps:
                found.append(f"{name}: volume {volume.get('name')}: ConfigMap {wanted.get('name')!r} is not here")
        for container in spec.get("containers", []):
            ports = {port.get("name") for port in container.get("ports", [])}
            for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
                port = container.get(probe, {}).get("httpGet", {}).get("port")
                if isinstance(port, str) and port not in ports:
                    found.append(f"{name}: {probe}.httpGet.port {port!r} is no port of {container['name']}")
            if is_ssdp_sim(container):
                found += ssdp_sim_errors(name, container, helps, profiles)
                played = device_file(documents, spec, container)
                if played and "problem" in played:
                    found.append(f"{name}: {played['problem']}")
                args = container.get("args", [])
                if "--expect-count" in args and "upnp:rootdevice" in args:
                    expected = int(args[args.index("--expect-count") + 1])
                    if started is not None and expected != started:
                        found.append(f"{name}: args: --expect-count {expected}, but the rendering starts"
                                     f" {started} root devices")
    found += fixed_udn_errors(pods)
    for document in documents:  # what the API server refuses to keep (etcd's limit of an object)
        if document.get("kind") == "ConfigMap":
            size = (sum(len(str(value).encode()) for value in (document.get("data") or {}).values())
                    + sum(len(str(value)) * 3 // 4 for value in (document.get("binaryData") or {}).values()))
            if size > 1024 * 1024:
                found.append(f"{name_of(document)}: {size} bytes of data, more than a ConfigMap holds (1 MiB)")
    for name, service in services.items():
        selector = service.get("spec", {}).get("selector", {})
        selected = [template for _, template in templates
                    if labels_match(selector, template.get("metadata", {}).get("labels", {}))]
        if not selected:
            found.append(f"Service {name}: spec.selector {selector} selects no pod here")
        for port in service.get("spec", {}).get("ports", []):
            target = port.get("targetPort")
            for template in selected if isinstance(target, str) else []:
                named = {p.get("name") for c in template["spec"]["containers"] for p in c.get("ports", [])}
                if target not in named:
                    found.append(f"Service {name}: targetPort {target!r} is no port of a pod it selects"
                                 f" ({template['metadata'].get('labels')})")
    return found


def check(path, help_dir):
    import importlib.metadata

    objects = documents(path)
    helps = {}
    for subcommand in ("serve", "search"):
        with open(f"{help_dir}/{subcommand}.txt") as file:
            helps[subcommand] = set(re.findall(r"--[a-z0-9-]+", file.read()))
    with open(f"{help_dir}/profiles.txt") as file:
        profiles = {line.split()[0] for line in file if line.strip()}
    schema = SchemaCheck()
    found, unchecked = [], []
    for document in objects:
        errors = schema.errors(document)
        if errors is None and document.get("apiVersion") == "k8s.cni.cncf.io/v1":
            errors = network_attachment_errors(document)
        if errors is None:
            unchecked.append(name_of(document))
            continue
        found += [f"{name_of(document)}: {error}" for error in errors]
    found += wiring_errors(objects, helps, profiles)
    for line in found:
        print(f"{path}: {line}")
    version = importlib.metadata.version("kubernetes")
    print(f"{path}: {len(objects)} objects, {len(found)} problems (models of the kubernetes client {version})"
          + (f"; no model for {', '.join(unchecked)}" if unchecked else ""))
    return 1 if found or unchecked else 0


def replica(statefulset, ordinal):
    """One pod of a StatefulSet as a Deployment of one, named as the cluster names the pod (NAME-ORDINAL),
    with volumes of its own: podman makes an emptyDir a named volume, which replicas would share."""
    name = f"{statefulset['metadata']['name']}-{ordinal}"
    template = json.loads(json.dumps(statefulset["spec"]["template"]))
    for volume in template["spec"].get("volumes", []):
        volume["name"] = f"{name}-{volume['name']}"
    for container in template["spec"]["containers"]:
        for mount in container.get("volumeMounts", []):
            mount["name"] = f"{name}-{mount['name']}"
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": dict(statefulset["metadata"], name=name),
        "spec": {"replicas": 1, "selector": statefulset["spec"]["selector"], "template": template},
    }


def for_podman(path, prefix):
    """What podman 4.3's `kube play` plays (Pods and Deployments) from what a cluster gets. The probes go:
    podman would run the HTTP one with a curl the image does not have; the test runs both itself. The
    container ports go too: podman publishes each on the host's port of the same number, so the second pod
    would find 8787 taken (in a cluster they only name the ports)."""
    devices, harnesses = [], []
    for document in documents(path):
        kind = document.get("kind")
        if kind == "ConfigMap":  # podman mounts a configMap volume from the played file's ConfigMaps
            devices.insert(0, document)
            continue
        if kind in ("StatefulSet", "Job"):
            template = document["spec"]["template"]
            for container in template["spec"]["containers"]:
                container.pop("readinessProbe", None)
                container.pop("livenessProbe", None)
                container.pop("ports", None)
        if kind == "StatefulSet":
            devices += [replica(document, ordinal) for ordinal in range(document["spec"].get("replicas", 1))]
        elif kind == "Job":
            template = document["spec"]["template"]
            metadata = dict(template.get("metadata", {}), name=document["metadata"]["name"])
            harnesses.append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": template["spec"]})
        else:
            print(f"not played: {name_of(document)} (podman 4.3 plays Pods and Deployments)", file=sys.stderr)
    for played, suffix in ((devices, "play"), (harnesses, "harness.play")):
        with open(f"{prefix}.{suffix}.yaml", "w") as file:
            yaml.safe_dump_all(played, file, sort_keys=False)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "podman":
        sys.exit(for_podman(sys.argv[2], sys.argv[3]))
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(64)
