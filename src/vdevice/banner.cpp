#include "vdevice/banner.hpp"

namespace clawperator::vdevice {

std::string device_banner(std::string_view product_name, std::string_view model,
                          std::string_view device_name, std::string_view features) {
  std::string banner = "device::ro.product.name=";
  banner.append(product_name).append(";ro.product.model=").append(model);
  banner.append(";ro.product.device=").append(device_name).append(";features=").append(features);
  return banner;
}

}  // namespace clawperator::vdevice
