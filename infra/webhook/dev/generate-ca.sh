#!/usr/bin/env bash
# Dev/test TLS without cert-manager: makes a CA and a serving certificate with openssl, writes the
# TLS Secret and a kustomization that injects the CA as caBundle everywhere. Then:
#   bash infra/webhook/dev/generate-ca.sh && kubectl apply -k infra/webhook/dev/generated
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/generated"
service="machine-api-webhook.machine-api-system.svc"
rm -rf "$out" && mkdir -p "$out" && cd "$out"
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.crt -days 365 -subj /CN=machine-api-dev-ca 2>/dev/null
openssl req "${ec[@]}" -keyout tls.key -out tls.csr -subj "/CN=$service" 2>/dev/null
printf 'subjectAltName=DNS:%s,DNS:%s.cluster.local\nextendedKeyUsage=serverAuth\n' "$service" "$service" > ext.cnf
openssl x509 -req -in tls.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out tls.crt -days 365 -extfile ext.cnf 2>/dev/null
ca_bundle="$(base64 -w0 < ca.crt)"
cat > kustomization.yaml <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
secretGenerator:
  - name: machine-api-webhook-tls
    namespace: machine-api-system
    type: kubernetes.io/tls
    files: [tls.crt, tls.key]
    options: { disableNameSuffixHash: true }
patches:
  - target: { group: admissionregistration.k8s.io, name: machine-api }
    patch: |-
      - { op: add, path: /webhooks/0/clientConfig/caBundle, value: "$ca_bundle" }
  - target: { group: apiextensions.k8s.io, kind: CustomResourceDefinition }
    patch: |-
      - { op: add, path: /spec/conversion/webhook/clientConfig/caBundle, value: "$ca_bundle" }
YAML
echo "wrote $out (apply with: kubectl apply -k $out)"
