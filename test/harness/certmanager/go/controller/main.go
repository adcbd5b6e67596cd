// Command controller runs cert-manager's certificate controllers for the end-to-end tests: the
// ones that issue the overlays' certificates (Issuers with selfSigned and ca, Certificates and
// their CertificateRequests, auto-approval), from the packages of the cert-manager module. The
// upstream command lives in a module of its own that the Go module proxy does not serve.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/cert-manager/cert-manager/pkg/controller"
	"github.com/cert-manager/cert-manager/pkg/logs"
	"k8s.io/klog/v2"

	// Each registers its controller (or issuer backend) with the packages above.
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
)

var enabled = []string{
	"issuers", "clusterissuers",
	"certificates-trigger", "certificates-issuing", "certificates-key-manager",
	"certificates-request-manager", "certificates-readiness", "certificates-revision-manager",
	"certificaterequests-approver", "certificaterequests-issuer-selfsigned", "certificaterequests-issuer-ca",
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	clusterResourceNamespace := flag.String("cluster-resource-namespace", "cert-manager", "namespace of ClusterIssuers' Secrets")
	klog.InitFlags(nil)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx = logs.NewContext(ctx, klog.Background().WithName("cert-manager-controller"))

	opts := controller.ContextOptions{Kubeconfig: *kubeconfig}
	opts.ClusterResourceNamespace = *clusterResourceNamespace
	opts.CertificateRequestMinimumBackoffDuration = time.Second
	opts.CertificateRequestMaximumBackoffDuration = 30 * time.Second
	factory, err := controller.NewContextFactory(ctx, opts)
	if err != nil {
		klog.Fatalf("building the controller context: %v", err)
	}
	var controllers []controller.Interface
	for _, name := range enabled {
		construct, ok := controller.Known()[name]
		if !ok {
			klog.Fatalf("controller %q is not registered", name)
		}
		c, err := construct(factory)
		if err != nil {
			klog.Fatalf("constructing %s: %v", name, err)
		}
		controllers = append(controllers, c)
	}
	// The controllers registered their informers on the shared factories; start them all.
	shared, err := factory.Build()
	if err != nil {
		klog.Fatalf("building the informer context: %v", err)
	}
	shared.KubeSharedInformerFactory.Start(ctx.Done())
	shared.SharedInformerFactory.Start(ctx.Done())
	shared.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())

	var wg sync.WaitGroup
	for i, c := range controllers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Run(2, ctx); err != nil {
				klog.Errorf("%s stopped: %v", enabled[i], err)
			}
		}()
	}
	klog.Infof("running %d controllers", len(controllers))
	wg.Wait()
}
