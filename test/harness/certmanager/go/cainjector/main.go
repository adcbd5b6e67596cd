// Command cainjector runs cert-manager's CA injector for the end-to-end tests: it fills caBundle
// in webhook configurations and CRD conversion stanzas annotated cert-manager.io/inject-ca-from,
// from the packages of the cert-manager module (the upstream command's module is not served).
package main

import (
	"flag"
	"os"

	cmapi "github.com/cert-manager/cert-manager/pkg/api"
	"github.com/cert-manager/cert-manager/pkg/controller/cainjector"
	"github.com/cert-manager/cert-manager/pkg/util"
	corev1 "k8s.io/api/core/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	apireg "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	// controller-runtime registers --kubeconfig itself; GetConfig reads it.
	klog.InitFlags(nil)
	flag.Parse()
	ctrl.SetLogger(klog.Background().WithName("cert-manager-cainjector"))

	config, err := ctrl.GetConfig()
	if err != nil {
		klog.Fatalf("loading the kubeconfig: %v", err)
	}
	// The injector's server-side apply field manager is derived from the user agent, as upstream.
	config = util.RestConfigWithUserAgent(config, "cainjector")
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, cmapi.AddToScheme, apiext.AddToScheme, apireg.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			klog.Fatal(err)
		}
	}
	mgr, err := ctrl.NewManager(config, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// Secrets are watched as metadata only; their data is read uncached, as upstream does.
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
	})
	if err != nil {
		klog.Fatalf("creating the manager: %v", err)
	}
	ctx := ctrl.SetupSignalHandler()
	err = cainjector.RegisterAllInjectors(ctx, mgr, cainjector.SetupOptions{
		EnableCertificatesDataSource: true,
		EnabledReconcilersFor: map[string]bool{
			"mutatingwebhookconfiguration": true, "validatingwebhookconfiguration": true,
			"apiservice": true, "customresourcedefinition": true,
		},
	})
	if err != nil {
		klog.Fatalf("registering the injectors: %v", err)
	}
	if err := mgr.Start(ctx); err != nil {
		klog.Errorf("manager stopped: %v", err)
		os.Exit(1)
	}
}
