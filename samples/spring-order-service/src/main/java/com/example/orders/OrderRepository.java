package com.example.orders;

import jakarta.persistence.LockModeType;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

/** The orders table, through Spring Data JPA. */
public interface OrderRepository extends JpaRepository<CustomerOrder, Long> {
  @Lock(LockModeType.PESSIMISTIC_WRITE)
  @Query("select o from CustomerOrder o where o.id = :id")
  Optional<CustomerOrder> lockById(long id);

  long countByState(String state);
}
